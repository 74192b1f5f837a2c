import type { PoolClient } from 'pg';
import type { EntityManager } from 'typeorm';
import { evaluateAlerts } from '../alerts/evaluate';
import { systemClock, type Clock } from '../time/clock';
import { queryRows } from '../db/query-rows';
import { quotaPeriod } from '../quotas/period';
import { applyLifecycle } from './apply-lifecycle';
import { discardKeyOf } from './discard-keys';
import { claimIds, ensurePartitions, findRetentionDays, releaseIds, type LedgerKey } from '../partitions';
import type { PreparedEvent } from './prepare-event';

export interface PersistResult {
  /** Events inserted now; redelivered ones (same project and eventId) are not counted. */
  inserted: number;
  duplicates: number;
  /** Issues created by this batch. */
  newIssueIds: string[];
  /** Alert deliveries written in this transaction: queue them once it has committed. */
  alertDeliveryIds: string[];
  /**
   * Events dropped because their issue is discarded (not stored), per organization and quota
   * month: the caller gives these units back to the quota once the transaction has committed.
   */
  discarded: DiscardedUsage[];
}

/** Units of the event quota to give back: events dropped for a discarded issue. */
export interface DiscardedUsage {
  organizationId: string;
  /** The quota month the edge counted them in (`quotaPeriod` of when they were received). */
  period: string;
  count: number;
}

export interface PersistOptions {
  /**
   * Lock the batch's issues right after reading them, before writing anything, instead of late
   * (the default; decision 033). `persistBatch` retries a batch this way when the late path met
   * a merge, unmerge, discard or delete of one of its issues.
   */
  lockIssuesEarly?: boolean;
  /** Dashboard origin, for the issue links in alerts. */
  publicUrl?: string;
  /** The time alert windows, intervals, mutes and digests are read against (default the wall clock). */
  clock?: Clock;
}

/**
 * Writes a batch of prepared events and the counters of their issues. Must run inside the
 * caller's transaction: the events and the counters commit together or not at all, which is
 * what makes redelivery after a crash safe.
 *
 * A few statements per batch, not per event (the events go in 100 to a statement; one more
 * only when feedback was waiting for one of them): per-row statements would cost a round trip
 * each and cap the worker at a few hundred events/s.
 *
 * The issues' row locks are taken late (decision 033): the issue ids are read without locking,
 * the events, users and tag values go in (their foreign keys hold only key-share locks, which
 * user actions' `FOR UPDATE` waits for), and only then are the batch's issues locked, in id
 * order, for the counters, the lifecycle and the alerts. Two workers touching the same issues
 * thus overlap everything but that tail. Whatever a user action changed in between (a discard,
 * a merge, an unmerge, a delete) is found under the lock and ends the transaction with
 * `IssuesChangedError`, and the batch is done again with the locks taken first.
 */
export async function persistEvents(
  em: EntityManager,
  batch: PreparedEvent[],
  options: PersistOptions = {},
): Promise<PersistResult> {
  if (batch.length === 0) return emptyResult();

  // The ledger first (decision 067): only the events whose id this transaction wins are resolved,
  // stored and counted, whatever their receipt time or retention; a repeat (redelivery, an SDK
  // retry through any edge, the same id twice in the batch, or another worker's copy in flight)
  // adds nothing. First, so a worker waiting for another's claim holds no issue lock meanwhile.
  const retention = await findRetentionDays(
    em,
    batch.map((e) => e.projectId),
  );
  const claimed = await claimIds(em, 'events', batch, ledgerKeyOf, retention);
  const repeats = batch.length - claimed.length;
  if (claimed.length === 0) return { ...emptyResult(), duplicates: repeats };

  const early = options.lockIssuesEarly === true;
  let upserted = await resolveIssues(em, claimed);
  for (let round = 0; early; round++) {
    try {
      await lockResolvedIssues(em, upserted);
      break;
    } catch (err) {
      // A user action got the lock first while this one waited: the issues locked so far can no
      // longer change, so reading again under them settles (what changed is read as it is now).
      if (!(err instanceof IssuesChangedError) || round === 3) throw err;
      const again = await resolveIssues(em, claimed);
      // An issue this transaction created is read back as existing: it is still new.
      for (const [key, r] of again) if (upserted.get(key)?.id === r.id && upserted.get(key)!.created) r.created = true;
      upserted = again;
    }
  }
  // A discarded issue's events are dropped here, whatever got past the edge (it cannot always
  // compute the key the worker does: symbolication regroups). Their raw keys are remembered so
  // the edge drops the next ones before they count against the quota. Their ids go back to the
  // ledger: it holds what is stored.
  const dropped = claimed.filter((e) => upserted.get(issueKey(e))!.discarded);
  if (dropped.length > 0) await releaseIds(em, 'events', dropped.map(ledgerKeyOf));
  const discarded = dropped.length === 0 ? [] : await dropDiscarded(em, dropped, upserted);
  const events = dropped.length === 0 ? claimed : claimed.filter((e) => !upserted.get(issueKey(e))!.discarded);
  const issueIds = upserted;
  if (events.length === 0) {
    if (!early) await lockResolvedIssues(em, upserted);
    return { ...emptyResult(), duplicates: repeats, discarded };
  }

  // Counting only what was inserted is the idempotency: every event here won its id in the ledger,
  // and the insert's own unique key (which holds the partition keys, decision 029) is a second
  // guard that returns no row for a repeat.
  // `awaits_link` asks, per inserted event, whether feedback naming it came first (a probe of a
  // partial index holding only feedback still waiting): the error path pays no extra statement.
  await ensurePartitions(
    em,
    'events',
    events.map((e) => ({ retentionDays: retention.get(e.projectId)!, receivedAt: e.receivedAt })),
  );
  const fresh = events;
  const inserted = await insertEvents(em, fresh, issueIds, retention);

  const byEventId = new Map(fresh.map((e) => [`${e.projectId}/${e.eventId}`, e]));
  const counters = new Map<string, { events: number; first: Date; last: Date; users: Set<string> }>();
  for (const row of inserted) {
    const e = byEventId.get(`${row.project_id}/${row.event_id}`)!;
    let c = counters.get(row.issue_id);
    if (!c) counters.set(row.issue_id, (c = { events: 0, first: e.timestamp, last: e.timestamp, users: new Set() }));
    c.events += 1;
    if (e.timestamp < c.first) c.first = e.timestamp;
    if (e.timestamp > c.last) c.last = e.timestamp;
    if (e.userKey) c.users.add(e.userKey);
  }

  const newUserKeys = await insertIssueUsers(em, counters);
  const newUsers = new Map([...newUserKeys].map(([id, keys]) => [id, keys.size]));
  await recordIssueTagValues(
    em,
    inserted.map((row) => ({ issueId: row.issue_id, event: byEventId.get(`${row.project_id}/${row.event_id}`)! })),
  );
  // From here on, under the issues' row locks: counters, feedback links, lifecycle, alerts.
  if (!early) await lockResolvedIssues(em, upserted);
  await bumpCounters(em, counters, newUsers);
  const waiting = inserted.filter((r) => r.awaits_link);
  await linkWaitingFeedback(em, waiting);

  const newIssueIds = [...issueIds.values()].filter((i) => i.created).map((i) => i.id);
  // The lifecycle (docs/releases-and-lifecycle.md) and its alerts, after the counters so alerts carry this batch's
  // counts, and under the issues' row locks.
  // What the lifecycle and the alert rules read of each inserted event, built once for both.
  const facts = inserted.map((row) => {
    const e = byEventId.get(`${row.project_id}/${row.event_id}`)!;
    return {
      projectId: e.projectId,
      issueId: row.issue_id,
      eventId: e.eventId,
      receivedAt: e.receivedAt,
      timestamp: e.timestamp,
      level: e.level,
      tags: e.tags,
      release: e.release,
      environment: e.environment,
      message: e.message,
      userKey: e.userKey,
    };
  });
  const triggers = await applyLifecycle(em, facts, new Set(newIssueIds), newUserKeys);
  const alertDeliveryIds = await evaluateAlerts(
    em,
    { events: facts, triggers, logs: [] },
    { now: (options.clock ?? systemClock)(), publicUrl: options.publicUrl ?? '' },
  );
  return {
    inserted: inserted.length,
    duplicates: repeats + events.length - inserted.length,
    newIssueIds,
    alertDeliveryIds,
    discarded,
  };
}

function emptyResult(): PersistResult {
  return { inserted: 0, duplicates: 0, newIssueIds: [], alertDeliveryIds: [], discarded: [] };
}

/**
 * Learns the keys of dropped events that the edge could not match yet, and answers the quota
 * units to give back: one per event the `discarded_events` ledger did not hold yet. The raw
 * (unsymbolicated) key is stored with the event's release (`<key>@<release>`): minified names are
 * only stable within one build, so the same raw key in another release may be another bug. Keys
 * without a release are stored bare.
 */
async function dropDiscarded(
  em: EntityManager,
  dropped: PreparedEvent[],
  upserted: Map<string, { id: string }>,
): Promise<DiscardedUsage[]> {
  const keys = new Map<string, { projectId: string; key: string; issueId: string }>();
  for (const e of dropped) {
    const issueId = upserted.get(issueKey(e))!.id;
    const raw = discardKeyOf(e.rawGroupingKey, e.groupingKey, e.release);
    keys.set(`${e.projectId}/${raw}`, { projectId: e.projectId, key: raw, issueId });
  }
  const rows = [...keys.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  await em.query(
    `INSERT INTO issue_discard_keys (project_id, grouping_key, issue_id)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[]) ON CONFLICT DO NOTHING`,
    [rows.map((r) => r.projectId), rows.map((r) => r.key), rows.map((r) => r.issueId)],
  );
  // Each dropped event gives its unit back once: the ledger answers only the ids it did not hold,
  // so a batch delivered again (its ack failed after the commit) gives nothing back twice.
  const ids = [...new Map(dropped.map((e) => [`${e.projectId}/${e.eventId}`, e])).values()].sort((a, b) =>
    byCodeUnits(`${a.projectId}/${a.eventId}`, `${b.projectId}/${b.eventId}`),
  );
  const firstDrops = await queryRows<{ organization_id: string; received_at: Date }>(
    em,
    `WITH recorded AS (
       INSERT INTO discarded_events (project_id, event_id, received_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[])
       ON CONFLICT (project_id, event_id) DO NOTHING
       RETURNING project_id, received_at
     )
     SELECT p.organization_id, r.received_at FROM recorded r JOIN projects p ON p.id = r.project_id`,
    [ids.map((e) => e.projectId), ids.map((e) => e.eventId), ids.map((e) => e.receivedAt.toISOString())],
  );
  const usage = new Map<string, DiscardedUsage>();
  for (const { organization_id: organizationId, received_at: receivedAt } of firstDrops) {
    const period = quotaPeriod(new Date(receivedAt));
    const k = `${organizationId}/${period}`;
    const u = usage.get(k);
    if (u) u.count += 1;
    else usage.set(k, { organizationId, period, count: 1 });
  }
  return [...usage.values()];
}

/** Columns of `INSERT events`, in the order `insertEvents` gives their values. */
export const EVENT_COLUMNS: readonly string[] = [
  'project_id',
  'issue_id',
  'event_id',
  'timestamp',
  'received_at',
  'level',
  'type',
  'message',
  'environment',
  'release',
  'url',
  'handled',
  'stack',
  'frames',
  'tags',
  'context',
  '"user"',
  'sdk',
  'fingerprint',
  'grouping_key',
  'retention_days',
  'causes',
  'breadcrumbs',
  'request',
  'log_message',
];

/**
 * Multi-row `VALUES` lists with a parameter per value, not `unnest` of one array per column like
 * the other statements here: the driver must escape every element of an array parameter into an
 * array literal, and for the stack and the JSON columns (~4 KB per event) that cost ~70 µs of
 * Node CPU per event, the largest single cost of the worker (docs/benchmarks.md).
 *
 * Full chunks of EVENTS_PER_INSERT rows go through one named (prepared) statement: parsing and
 * planning 1,900 parameters afresh cost PostgreSQL as much CPU per event as a quarter of the
 * insert itself. One fixed size means one prepared statement per connection, whatever the batch
 * sizes; the rest of a batch is an unnamed statement. (A pooler in front of PostgreSQL must pass
 * named statements through: PgBouncer ≥ 1.21 with `max_prepared_statements`, or session mode.)
 */
async function insertEvents(
  em: EntityManager,
  events: PreparedEvent[],
  issueIds: Map<string, { id: string }>,
  retention: Map<string, number>,
): Promise<InsertedEvent[]> {
  // In issue id order: each row's foreign key takes a key-share lock on its issue, and user
  // actions lock issues in id order too, so neither can hold one while waiting for the other's.
  const order = events.map((e, i) => ({ e, i, issue: issueIds.get(issueKey(e))!.id }));
  order.sort((a, b) => (a.issue < b.issue ? -1 : a.issue > b.issue ? 1 : a.i - b.i));
  const sorted = order.map((o) => o.e);
  const client = sorted.length >= EVENTS_PER_INSERT ? await driverConnection(em) : undefined;
  const inserted: InsertedEvent[] = [];
  let running: Promise<InsertedEvent[]> | undefined;
  for (let start = 0; start < sorted.length; start += EVENTS_PER_INSERT) {
    const end = Math.min(start + EVENTS_PER_INSERT, sorted.length);
    // Built while PostgreSQL runs the previous chunk's statement.
    const params = eventParams(sorted, start, end, issueIds, retention);
    if (running) for (const row of await running) inserted.push(row);
    const rows = end - start;
    const sql = insertEventsSql(rows);
    running =
      client && rows === EVENTS_PER_INSERT
        ? client
            .query({ name: `tracker_insert_events_${rows}`, text: sql, values: params })
            .then((r) => r.rows as InsertedEvent[])
        : queryRows<InsertedEvent>(em, sql, params);
  }
  if (running) for (const row of await running) inserted.push(row);
  // Back in the batch's order: the lifecycle and the alerts read the events as they came.
  const position = new Map<string, number>();
  events.forEach((e, i) => {
    const key = `${e.projectId}/${e.eventId}`;
    if (!position.has(key)) position.set(key, i);
  });
  return inserted.sort(
    (a, b) => position.get(`${a.project_id}/${a.event_id}`)! - position.get(`${b.project_id}/${b.event_id}`)!,
  );
}

function eventParams(
  events: PreparedEvent[],
  start: number,
  end: number,
  issueIds: Map<string, { id: string }>,
  retention: Map<string, number>,
): unknown[] {
  const params: unknown[] = [];
  for (let i = start; i < end; i++) {
    const e = events[i];
    params.push(
      e.projectId,
      issueIds.get(issueKey(e))!.id,
      e.eventId,
      e.timestamp.toISOString(),
      e.receivedAt.toISOString(),
      e.level,
      e.type,
      e.message,
      e.environment,
      e.release,
      e.url,
      e.handled,
      e.stack,
      JSON.stringify(e.frames),
      JSON.stringify(e.tags),
      json(e.context),
      json(e.user),
      json(e.sdk),
      json(e.fingerprint),
      e.groupingKey,
      retention.get(e.projectId),
      json(e.causes),
      json(e.breadcrumbs),
      json(e.request),
      e.logMessage,
    );
  }
  return params;
}

interface InsertedEvent {
  project_id: string;
  issue_id: string;
  event_id: string;
  awaits_link: boolean;
}

const EVENTS_PER_INSERT = 100;
const insertSqlByRows = new Map<number, string>();

function insertEventsSql(rows: number): string {
  let sql = insertSqlByRows.get(rows);
  if (sql === undefined) {
    const tuples: string[] = [];
    for (let r = 0; r < rows; r++) {
      const base = r * EVENT_COLUMNS.length;
      tuples.push(`(${EVENT_COLUMNS.map((_, c) => `$${base + c + 1}`).join(',')})`);
    }
    sql = `INSERT INTO events (${EVENT_COLUMNS.join(', ')})
     VALUES ${tuples.join(',\n')}
     ON CONFLICT (project_id, event_id, retention_days, received_at) DO NOTHING
     RETURNING project_id, issue_id, event_id,
       EXISTS (SELECT 1 FROM feedback f WHERE f.project_id = events.project_id
         AND f.event_id = events.event_id AND f.issue_id IS NULL) AS awaits_link`;
    insertSqlByRows.set(rows, sql); // at most EVENTS_PER_INSERT sizes
  }
  return sql;
}

/**
 * The driver's connection of the transaction `em` runs in (pg's client, or PGlite's adapter of
 * it): TypeORM's `query` takes SQL text only, and a named statement needs the driver's own.
 */
async function driverConnection(em: EntityManager): Promise<Pick<PoolClient, 'query'> | undefined> {
  const runner = em.queryRunner as { connect?: () => Promise<unknown>; isTransactionActive?: boolean } | undefined;
  if (!runner?.isTransactionActive || typeof runner.connect !== 'function') return undefined;
  const connection = (await runner.connect()) as Partial<PoolClient> | undefined;
  return typeof connection?.query === 'function' ? (connection as PoolClient) : undefined;
}

function ledgerKeyOf(e: PreparedEvent): LedgerKey {
  return { projectId: e.projectId, id: e.eventId, receivedAt: e.receivedAt };
}

function issueKey(e: PreparedEvent): string {
  return `${e.projectId}/${e.groupingKey}`;
}

function json(value: unknown): string | null {
  return value == null ? null : JSON.stringify(value);
}

/**
 * Thrown inside the transaction when, by the time the late path locked its issues, one of them
 * was discarded, merged, unmerged or deleted since it was read: the transaction rolls back and
 * the batch is done again with the locks taken first (`lockIssuesEarly`).
 */
export class IssuesChangedError extends Error {
  constructor(detail: string) {
    super(`issues changed while the batch was written: ${detail}`);
    this.name = 'IssuesChangedError';
  }
}

interface ResolvedIssue {
  id: string;
  created: boolean;
  discarded: boolean;
  /** Reached through issue_aliases (a merged key): re-read under the lock, since an unmerge moves it. */
  aliased: boolean;
  projectId: string;
  fingerprint: string;
}

/**
 * One event per issue key, in key order: two workers creating the same new issues insert them in
 * the same order, so neither waits for a key the other holds while holding one it wants.
 */
function keysOf(events: PreparedEvent[]): PreparedEvent[] {
  const firstByIssue = new Map<string, PreparedEvent>();
  for (const e of events) if (!firstByIssue.has(issueKey(e))) firstByIssue.set(issueKey(e), e);
  return [...firstByIssue.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
}

function keyParams(sorted: PreparedEvent[]): unknown[] {
  return [
    sorted.map((e) => e.projectId),
    sorted.map((e) => e.groupingKey),
    sorted.map((e) => e.title),
    sorted.map((e) => e.type),
    sorted.map((e) => e.culprit),
    sorted.map((e) => e.level),
    sorted.map((e) => e.timestamp.toISOString()),
  ];
}

/**
 * The first step on either path: creates the missing issues and reads the others, without locking
 * an existing one. A key another worker created after this statement's snapshot is absent from
 * the answer (its insert waited for that worker, then did nothing); the next round reads it.
 */
async function resolveIssues(em: EntityManager, events: PreparedEvent[]): Promise<Map<string, ResolvedIssue>> {
  const resolved = new Map<string, ResolvedIssue>();
  let pending = keysOf(events);
  for (let round = 0; pending.length > 0; round++) {
    if (round === 3) throw new IssuesChangedError(`${pending.length} issue key(s) could not be read`);
    const rows = await queryRows<ResolvedIssue>(
      em,
      `WITH k AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
           AS k(project_id, fingerprint, title, type, culprit, level, seen)
       ), aliased AS (
         SELECT i.id, k.project_id, k.fingerprint, i.discarded_at IS NOT NULL AS discarded FROM k
           JOIN issue_aliases a ON a.project_id = k.project_id AND a.fingerprint = k.fingerprint
           JOIN issues i ON i.id = a.issue_id
       ), existing AS (
         SELECT i.id, k.project_id, k.fingerprint, i.discarded_at IS NOT NULL AS discarded FROM k
           JOIN issues i ON i.project_id = k.project_id AND i.fingerprint = k.fingerprint
          WHERE NOT EXISTS (SELECT 1 FROM issue_aliases a WHERE a.project_id = k.project_id AND a.fingerprint = k.fingerprint)
       ), inserted AS (
         INSERT INTO issues (project_id, fingerprint, title, type, culprit, level, first_seen, last_seen)
         SELECT k.project_id, k.fingerprint, k.title, k.type, k.culprit, k.level, k.seen, k.seen FROM k
          WHERE NOT EXISTS (SELECT 1 FROM issue_aliases a WHERE a.project_id = k.project_id AND a.fingerprint = k.fingerprint)
            AND NOT EXISTS (SELECT 1 FROM issues i WHERE i.project_id = k.project_id AND i.fingerprint = k.fingerprint)
         ON CONFLICT (project_id, fingerprint) DO NOTHING
         RETURNING id, project_id, fingerprint, discarded_at IS NOT NULL AS discarded
       )
       SELECT id, project_id AS "projectId", fingerprint, true AS created, discarded, false AS aliased FROM inserted
       UNION ALL SELECT id, project_id, fingerprint, false, discarded, false FROM existing
       UNION ALL SELECT id, project_id, fingerprint, false, discarded, true FROM aliased`,
      keyParams(pending),
    );
    for (const r of rows) resolved.set(`${r.projectId}/${r.fingerprint}`, r);
    pending = pending.filter((e) => !resolved.has(issueKey(e)));
  }
  return resolved;
}

/**
 * The issues' lock (late by default, right after `resolveIssues` with `lockIssuesEarly`): every
 * issue the batch resolved, in id order (as user actions and other workers take them),
 * `FOR NO KEY UPDATE` (what the counters' UPDATE needs; it does not block the key-share locks of
 * other workers' inserts). Under the lock, each issue must still exist with the discarded state
 * read at first, and each merged key must still lead to the same issue: anything else is a user
 * action that came in between, and the batch is redone (`IssuesChangedError`).
 */
async function lockResolvedIssues(em: EntityManager, resolved: Map<string, ResolvedIssue>): Promise<void> {
  const expected = new Map<string, boolean>();
  for (const r of resolved.values()) expected.set(r.id, r.discarded);
  const ids = [...expected.keys()].sort();
  const locked = await queryRows<{ id: string; discarded: boolean }>(
    em,
    'SELECT id, discarded_at IS NOT NULL AS discarded FROM issues WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE',
    [ids],
  );
  if (locked.length !== ids.length) throw new IssuesChangedError(`${ids.length - locked.length} issue(s) deleted`);
  for (const l of locked) {
    if (expected.get(l.id) !== l.discarded) throw new IssuesChangedError(`issue ${l.id} discarded or restored`);
  }
  const aliased = [...resolved.values()].filter((r) => r.aliased);
  if (aliased.length === 0) return;
  // A new statement, so it reads what committed while the lock above waited.
  const now = await queryRows<{ project_id: string; fingerprint: string; issue_id: string }>(
    em,
    `SELECT k.project_id, k.fingerprint, a.issue_id
       FROM unnest($1::uuid[], $2::text[]) AS k(project_id, fingerprint)
       JOIN issue_aliases a ON a.project_id = k.project_id AND a.fingerprint = k.fingerprint`,
    [aliased.map((r) => r.projectId), aliased.map((r) => r.fingerprint)],
  );
  const target = new Map(now.map((r) => [`${r.project_id}/${r.fingerprint}`, r.issue_id]));
  for (const r of aliased) {
    if (target.get(`${r.projectId}/${r.fingerprint}`) !== r.id) {
      throw new IssuesChangedError(`merged key ${r.fingerprint} moved`);
    }
  }
}

async function insertIssueUsers(
  em: EntityManager,
  counters: Map<string, { users: Set<string> }>,
): Promise<Map<string, Set<string>>> {
  const issueIds: string[] = [];
  const userKeys: string[] = [];
  for (const [issueId, c] of counters) {
    for (const u of c.users) {
      issueIds.push(issueId);
      userKeys.push(u);
    }
  }
  const added = new Map<string, Set<string>>();
  if (issueIds.length === 0) return added;
  const rows = await queryRows<{ issue_id: string; user_key: string }>(
    em,
    `INSERT INTO issue_users (issue_id, user_key) SELECT * FROM unnest($1::uuid[], $2::text[])
     ON CONFLICT DO NOTHING RETURNING issue_id, user_key`,
    [issueIds, userKeys],
  );
  for (const r of rows) {
    let keys = added.get(r.issue_id);
    if (!keys) added.set(r.issue_id, (keys = new Set()));
    keys.add(r.user_key);
  }
  return added;
}

/**
 * issue_tag_values: each distinct tag `key = value` and user (`user.id`, `user.email`) of the
 * batch's inserted events, per issue, in one insert-if-absent; what the search language's tag
 * and user terms probe (docs/issue-queries.md). Deduplicated here so the statement carries each
 * row once, and sorted so two workers insert shared keys in the same order.
 */
async function recordIssueTagValues(
  em: EntityManager,
  rows: Array<{ issueId: string; event: PreparedEvent }>,
): Promise<void> {
  // Nested by issue and key, then flattened in (issue, key, value) order: a third of the CPU of
  // one map over joined `issue\0key\0value` strings sorted whole (3.4 against 7.6-11.5 µs per
  // event, a 500-event batch of the worker bench's data).
  const byIssue = new Map<string, { projectId: string; values: Map<string, Set<string>> }>();
  for (const { issueId, event: e } of rows) {
    let entry = byIssue.get(issueId);
    if (!entry) byIssue.set(issueId, (entry = { projectId: e.projectId, values: new Map() }));
    for (const key of Object.keys(e.tags)) addTagValue(entry.values, key, e.tags[key]);
    const user = e.user as { id?: unknown; email?: unknown } | null;
    const id = typeof user?.id === 'string' || typeof user?.id === 'number' ? String(user.id) : '';
    if (id !== '') addTagValue(entry.values, 'user.id', id);
    const email = typeof user?.email === 'string' ? user.email.trim().toLowerCase() : '';
    if (email !== '') addTagValue(entry.values, 'user.email', email);
  }
  const issueIds: string[] = [];
  const projectIds: string[] = [];
  const keys: string[] = [];
  const values: string[] = [];
  for (const issueId of [...byIssue.keys()].sort(byCodeUnits)) {
    const { projectId, values: tags } = byIssue.get(issueId)!;
    for (const key of [...tags.keys()].sort(byCodeUnits)) {
      for (const value of [...tags.get(key)!].sort(byCodeUnits)) {
        issueIds.push(issueId);
        projectIds.push(projectId);
        keys.push(key);
        values.push(value);
      }
    }
  }
  if (issueIds.length === 0) return;
  await em.query(
    `INSERT INTO issue_tag_values (issue_id, project_id, key, value)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[]) ON CONFLICT DO NOTHING`,
    [issueIds, projectIds, keys, values],
  );
}

function addTagValue(tags: Map<string, Set<string>>, key: string, value: string): void {
  let set = tags.get(key);
  if (!set) tags.set(key, (set = new Set()));
  set.add(value);
}

/** Any one total order serves (two workers must meet shared rows in the same order); this one is cheap. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function bumpCounters(
  em: EntityManager,
  counters: Map<string, { events: number; first: Date; last: Date }>,
  newUsers: Map<string, number>,
): Promise<void> {
  if (counters.size === 0) return;
  const ids = [...counters.keys()].sort();
  await em.query(
    `UPDATE issues i SET
       event_count = i.event_count + d.events,
       user_count = i.user_count + d.users,
       first_seen = least(i.first_seen, d.first),
       last_seen = greatest(i.last_seen, d.last)
     FROM unnest($1::uuid[], $2::bigint[], $3::int[], $4::timestamptz[], $5::timestamptz[])
       AS d(id, events, users, first, last)
     WHERE i.id = d.id`,
    [
      ids,
      ids.map((id) => counters.get(id)!.events),
      ids.map((id) => newUsers.get(id) ?? 0),
      ids.map((id) => counters.get(id)!.first.toISOString()),
      ids.map((id) => counters.get(id)!.last.toISOString()),
    ],
  );
}

/** Feedback can arrive before its event: it was stored without an issue, which it gets now. */
async function linkWaitingFeedback(
  em: EntityManager,
  rows: Array<{ project_id: string; issue_id: string; event_id: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  await em.query(
    `UPDATE feedback f SET issue_id = d.issue_id
     FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS d(project_id, event_id, issue_id)
     WHERE f.project_id = d.project_id AND f.event_id = d.event_id AND f.issue_id IS NULL`,
    [rows.map((r) => r.project_id), rows.map((r) => r.event_id), rows.map((r) => r.issue_id)],
  );
}
