import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { AlertFilter, AlertKind } from '../entities';
import { levelRank, logMatches, matchesFilter } from './conditions';
import type { AlertTrigger } from './outbox';
import { PROJECT_KINDS } from './rule-settings';

/** One inserted error event, as the rules see it. */
export interface AlertEventFacts {
  projectId: string;
  issueId: string;
  eventId: string;
  receivedAt: Date;
  level: string;
  tags: Record<string, string>;
  release: string | null;
  environment: string;
  message: string;
  userKey: string | null;
}

/** One inserted log line, as LOG_MATCH sees it. */
export interface AlertLogFacts {
  projectId: string;
  id: string;
  receivedAt: Date;
  timestamp: Date;
  level: string;
  message: string;
  environment: string;
  release: string | null;
  tags: Record<string, string>;
}

export interface AlertBatch {
  events: AlertEventFacts[];
  /** NEW_ISSUE, REGRESSED_ISSUE and NEW_RELEASE_ISSUE, from the lifecycle step. */
  triggers: AlertTrigger[];
  logs: AlertLogFacts[];
}

export interface EvaluateOptions {
  /** The batch's time (the tracker's clock): windows, intervals, mutes and digests read it. */
  now: number;
  /** Dashboard origin, for the issue and mute links. */
  publicUrl: string;
}

export interface RuleRow {
  id: string;
  project_id: string;
  kind: AlertKind;
  threshold: number | null;
  window_minutes: number | null;
  query: string | null;
  filter: AlertFilter | null;
  action_interval_minutes: number;
  digest_minutes: number | null;
  muted_until: Date | null;
}

/** A rule's facts about one subject (an issue, or the project), gathered from the batch. */
interface Subject {
  rule: RuleRow;
  /** An issue id, `project` (ERROR_SPIKE) or `log` (LOG_MATCH). */
  subject: string;
  issueId: string | null;
  /** Events (or log lines) of the batch that pass the rule's conditions. */
  matched: number;
  /** The event that fires the rule, when its trigger says so (NEW_ISSUE…) or the latest matched one. */
  event: AlertEventFacts | null;
  log: AlertLogFacts | null;
  /** Set when the rule's trigger holds for this subject. */
  fires: boolean;
  extra: Record<string, unknown>;
  /** Counting kinds: minute buckets of this batch, and users per bucket. */
  buckets: Map<number, number>;
  users: Map<number, Set<string>>;
}

const MINUTE = 60_000;
const bucketOf = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;
const DIGEST_ITEMS_MAX = 50;

/**
 * Evaluates the project's enabled rules against a batch, in the batch's transaction, and writes
 * the outbox rows (docs/alerts.md). Returns the deliveries to queue after commit (digests wait for
 * the sweeper). Everything a rule remembers lives in the database: minute buckets for the
 * windows (`alert_rule_counts`, `alert_rule_users`), the last firing and the events since per
 * rule and subject (`alert_rule_state`) and the open digest (`alert_digests`), so any number of
 * workers count together. Rows are upserted in key order and the state row of a subject is
 * locked until commit, so two workers fire a rule for a subject at most once per interval.
 * A batch of projects without rules costs one indexed query.
 */
export async function evaluateAlerts(
  em: EntityManager,
  batch: AlertBatch,
  options: EvaluateOptions,
): Promise<string[]> {
  const projectIds = [...new Set([...batch.events.map((e) => e.projectId), ...batch.logs.map((l) => l.projectId)])];
  if (projectIds.length === 0) return [];
  const rules = await queryRows<RuleRow>(
    em,
    `SELECT id, project_id, kind, threshold, window_minutes, query, filter, action_interval_minutes, digest_minutes,
            muted_until
       FROM alert_rules WHERE project_id = ANY($1::uuid[]) AND enabled ORDER BY id`,
    [projectIds],
  );
  if (rules.length === 0) return [];
  const now = options.now;

  const issueIds = [...new Set(batch.events.map((e) => e.issueId))];
  const issues = new Map<string, { assigned: boolean; mutedUntil: Date | null }>();
  if (issueIds.length > 0 && rules.some((r) => r.kind !== 'LOG_MATCH')) {
    const rows = await queryRows<{ id: string; assigned: boolean; alerts_muted_until: Date | null }>(
      em,
      `SELECT id, assignee_id IS NOT NULL AS assigned, alerts_muted_until FROM issues WHERE id = ANY($1::uuid[])`,
      [issueIds],
    );
    for (const r of rows)
      issues.set(r.id, {
        assigned: r.assigned,
        mutedUntil: r.alerts_muted_until ? new Date(r.alerts_muted_until) : null,
      });
  }
  const eventsById = new Map(batch.events.map((e) => [`${e.projectId}/${e.eventId}`, e]));
  const passes = (rule: RuleRow, e: AlertEventFacts) =>
    matchesFilter(rule.filter ?? {}, { ...e, assigned: issues.get(e.issueId)?.assigned ?? false });

  const subjects = new Map<string, Subject>();
  const subjectOf = (rule: RuleRow, subject: string, issueId: string | null): Subject => {
    const key = `${rule.id}/${subject}`;
    let s = subjects.get(key);
    if (!s) {
      s = {
        rule,
        subject,
        issueId,
        matched: 0,
        event: null,
        log: null,
        fires: false,
        extra: {},
        buckets: new Map(),
        users: new Map(),
      };
      subjects.set(key, s);
    }
    return s;
  };

  for (const rule of rules) {
    if (rule.kind === 'LOG_MATCH') {
      for (const l of batch.logs) {
        if (l.projectId !== rule.project_id || levelRank(l.level) < levelRank('error')) continue;
        if (!logMatches(rule.query ?? '', l.message) || !matchesFilter(rule.filter ?? {}, l)) continue;
        const s = subjectOf(rule, 'log', null);
        s.matched += 1;
        if (!s.log || l.receivedAt >= s.log.receivedAt) s.log = l;
        s.fires = true;
        s.extra = { query: rule.query };
      }
      continue;
    }
    const project = PROJECT_KINDS.has(rule.kind);
    for (const e of batch.events) {
      if (e.projectId !== rule.project_id || !passes(rule, e)) continue;
      const s = subjectOf(rule, project ? 'project' : e.issueId, project ? null : e.issueId);
      s.matched += 1;
      if (!s.event || e.receivedAt >= s.event.receivedAt) s.event = e;
      if (rule.kind === 'ISSUE_FREQUENCY' || rule.kind === 'ERROR_SPIKE' || rule.kind === 'USERS_AFFECTED') {
        const b = bucketOf(e.receivedAt.getTime());
        s.buckets.set(b, (s.buckets.get(b) ?? 0) + 1);
        if (rule.kind === 'USERS_AFFECTED' && e.userKey) {
          let set = s.users.get(b);
          if (!set) s.users.set(b, (set = new Set()));
          set.add(e.userKey);
        }
      }
    }
    // The kinds fired by a lifecycle step: the trigger's own event must pass the conditions.
    for (const t of batch.triggers) {
      if (t.kind !== rule.kind || t.projectId !== rule.project_id) continue;
      const e = eventsById.get(`${t.projectId}/${t.event.eventId}`);
      if (!e || !passes(rule, e)) continue;
      const s = subjectOf(rule, t.issueId, t.issueId);
      s.fires = true;
      s.event = e;
      if (t.kind === 'NEW_RELEASE_ISSUE') s.extra = { newRelease: { version: e.release, environment: e.environment } };
    }
  }
  if (subjects.size === 0) return [];
  const all = [...subjects.values()].sort((a, b) => cmp(a.rule.id, b.rule.id) || cmp(a.subject, b.subject));

  await countWindows(
    em,
    all.filter((s) => s.buckets.size > 0),
    now,
  );

  // Every matched subject's state, in key order: events since the last firing, and the lock that
  // serializes the firing decision between workers.
  const states = await queryRows<{
    rule_id: string;
    subject: string;
    last_fired_at: Date | null;
    events_since: string;
  }>(
    em,
    `INSERT INTO alert_rule_state (rule_id, subject, events_since)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[]) ORDER BY 1, 2
     ON CONFLICT (rule_id, subject) DO UPDATE SET events_since = alert_rule_state.events_since + excluded.events_since
     RETURNING rule_id, subject, last_fired_at, events_since`,
    [all.map((s) => s.rule.id), all.map((s) => s.subject), all.map((s) => s.matched)],
  );
  const stateOf = new Map(states.map((r) => [`${r.rule_id}/${r.subject}`, r]));

  const firings: Firing[] = [];
  for (const s of all) {
    if (!s.fires) continue;
    const rule = s.rule;
    if (rule.muted_until && new Date(rule.muted_until).getTime() > now) continue;
    const issueMute = s.issueId ? issues.get(s.issueId)?.mutedUntil : null;
    if (issueMute && issueMute.getTime() > now) continue;
    const state = stateOf.get(`${rule.id}/${s.subject}`);
    const last = state?.last_fired_at ? new Date(state.last_fired_at).getTime() : null;
    if (last !== null && now - last < rule.action_interval_minutes * MINUTE) continue;
    firings.push({
      rule,
      subject: s.subject,
      issueId: s.issueId,
      event: s.event,
      log: s.log,
      extra: {
        ...s.extra,
        eventsSinceLastAlert: last === null ? null : Number(state!.events_since),
        lastAlertAt: last === null ? null : new Date(last).toISOString(),
      },
    });
  }
  if (firings.length === 0) return [];
  await em.query(
    `UPDATE alert_rule_state s SET last_fired_at = $3, events_since = 0
       FROM unnest($1::uuid[], $2::text[]) AS k(rule_id, subject)
      WHERE s.rule_id = k.rule_id AND s.subject = k.subject`,
    [firings.map((f) => f.rule.id), firings.map((f) => f.subject), new Date(now).toISOString()],
  );
  return writeFirings(em, firings, options);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Adds the batch's buckets, reads each window's sum (events, or distinct users), decides the
 * counting kinds' triggers and drops buckets that left every window. One statement each.
 */
async function countWindows(em: EntityManager, counted: Subject[], now: number): Promise<void> {
  if (counted.length === 0) return;
  const counts: Array<[string, string, number, number]> = [];
  const users: Array<[string, string, number, string]> = [];
  for (const s of counted) {
    for (const [b, n] of s.buckets) counts.push([s.rule.id, s.subject, b, n]);
    for (const [b, set] of s.users) for (const u of set) users.push([s.rule.id, s.subject, b, u]);
  }
  counts.sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]) || a[2] - b[2]);
  users.sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]) || a[2] - b[2] || cmp(a[3], b[3]));
  await em.query(
    `INSERT INTO alert_rule_counts (rule_id, subject, bucket, events)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::bigint[]) ORDER BY 1, 2, 3
     ON CONFLICT (rule_id, subject, bucket) DO UPDATE SET events = alert_rule_counts.events + excluded.events`,
    [counts.map((c) => c[0]), counts.map((c) => c[1]), counts.map((c) => iso(c[2])), counts.map((c) => c[3])],
  );
  if (users.length > 0) {
    await em.query(
      `INSERT INTO alert_rule_users (rule_id, subject, bucket, user_key)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[]) ORDER BY 1, 2, 3, 4
       ON CONFLICT DO NOTHING`,
      [users.map((u) => u[0]), users.map((u) => u[1]), users.map((u) => iso(u[2])), users.map((u) => u[3])],
    );
  }
  // The window is whole minutes: the current one and the M − 1 before it.
  const since = counted.map((s) => iso(bucketOf(now) - (s.rule.window_minutes! - 1) * MINUTE));
  const sums = await queryRows<{ rule_id: string; subject: string; events: string; users: string | null }>(
    em,
    `SELECT k.rule_id, k.subject,
       (SELECT coalesce(sum(c.events), 0) FROM alert_rule_counts c
         WHERE c.rule_id = k.rule_id AND c.subject = k.subject AND c.bucket >= k.since) AS events,
       CASE WHEN k.users THEN (SELECT count(DISTINCT u.user_key) FROM alert_rule_users u
         WHERE u.rule_id = k.rule_id AND u.subject = k.subject AND u.bucket >= k.since) END AS users
     FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::boolean[]) AS k(rule_id, subject, since, users)`,
    [
      counted.map((s) => s.rule.id),
      counted.map((s) => s.subject),
      since,
      counted.map((s) => s.rule.kind === 'USERS_AFFECTED'),
    ],
  );
  const bySubject = new Map(counted.map((s) => [`${s.rule.id}/${s.subject}`, s]));
  for (const r of sums) {
    const s = bySubject.get(`${r.rule_id}/${r.subject}`)!;
    const rule = s.rule;
    const minutes = rule.window_minutes!;
    const threshold = rule.threshold!;
    if (rule.kind === 'USERS_AFFECTED') {
      const n = Number(r.users ?? 0);
      s.fires = n > threshold;
      s.extra = { window: { minutes, threshold, count: n, unit: 'users' } };
    } else if (rule.kind === 'ERROR_SPIKE') {
      const n = Number(r.events);
      s.fires = n > threshold * minutes;
      s.extra = {
        window: { minutes, threshold, count: n, unit: 'events', ratePerMinute: Math.round((n / minutes) * 100) / 100 },
      };
    } else {
      const n = Number(r.events);
      s.fires = n > threshold;
      s.extra = { window: { minutes, threshold, count: n, unit: 'events' } };
    }
  }
  // Buckets no window reaches any more (what this batch touched only: cheap, and enough).
  await em.query(
    `DELETE FROM alert_rule_counts c USING unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS k(rule_id, subject, since)
      WHERE c.rule_id = k.rule_id AND c.subject = k.subject AND c.bucket < k.since`,
    [counted.map((s) => s.rule.id), counted.map((s) => s.subject), since],
  );
  const withUsers = counted.filter((s) => s.rule.kind === 'USERS_AFFECTED');
  if (withUsers.length > 0) {
    await em.query(
      `DELETE FROM alert_rule_users u USING unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS k(rule_id, subject, since)
        WHERE u.rule_id = k.rule_id AND u.subject = k.subject AND u.bucket < k.since`,
      [
        withUsers.map((s) => s.rule.id),
        withUsers.map((s) => s.subject),
        withUsers.map((s) => iso(bucketOf(now) - (s.rule.window_minutes! - 1) * MINUTE)),
      ],
    );
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export interface Firing {
  rule: RuleRow;
  subject: string;
  issueId: string | null;
  event: AlertEventFacts | null;
  log: AlertLogFacts | null;
  extra: Record<string, unknown>;
}

/** The issue snapshot every issue alert carries (docs/alerts.md, "The payload"). */
const ISSUE_JSON = `jsonb_build_object(
  'id', i.id, 'title', i.title, 'type', i.type, 'culprit', i.culprit, 'status', upper(i.status),
  'eventCount', i.event_count, 'userCount', i.user_count,
  'firstSeen', to_char(i.first_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'lastSeen', to_char(i.last_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'url', $2 || '/projects/' || i.project_id || '/issues/' || i.id)`;

/** Payloads (snapshots taken now, with this batch's counters), then outbox rows or digest items. */
export async function writeFirings(em: EntityManager, firings: Firing[], options: EvaluateOptions): Promise<string[]> {
  const issueIds = [...new Set(firings.map((f) => f.issueId).filter((id): id is string => id !== null))];
  const projectIds = [...new Set(firings.map((f) => f.rule.project_id))];
  const [issueRows, projectRows] = await Promise.all([
    issueIds.length === 0
      ? Promise.resolve([])
      : queryRows<{ id: string; issue: Record<string, unknown> }>(
          em,
          `SELECT i.id, ${ISSUE_JSON} AS issue FROM issues i WHERE i.id = ANY($1::uuid[])`,
          [issueIds, options.publicUrl],
        ),
    queryRows<{ id: string; name: string }>(em, `SELECT id, name FROM projects WHERE id = ANY($1::uuid[])`, [
      projectIds,
    ]),
  ]);
  const issueJson = new Map(issueRows.map((r) => [r.id, r.issue]));
  const projectOf = new Map(projectRows.map((r) => [r.id, { id: r.id, name: r.name }]));

  const payloadOf = (f: Firing): Record<string, unknown> => {
    const muteBase = `${options.publicUrl}/projects/${f.rule.project_id}/alerts/mute?rule=${f.rule.id}`;
    return {
      project: projectOf.get(f.rule.project_id),
      ...(f.issueId && issueJson.has(f.issueId) ? { issue: issueJson.get(f.issueId) } : {}),
      ...(f.event
        ? {
            event: {
              eventId: f.event.eventId,
              release: f.event.release,
              environment: f.event.environment,
              message: f.event.message.slice(0, 1000),
            },
          }
        : {}),
      ...(f.log
        ? {
            log: {
              id: f.log.id,
              level: f.log.level,
              message: f.log.message.slice(0, 1000),
              environment: f.log.environment,
              release: f.log.release,
              timestamp: f.log.timestamp.toISOString(),
            },
          }
        : {}),
      ...f.extra,
      links: {
        muteRule: muteBase,
        ...(f.issueId ? { muteIssue: `${muteBase}&issue=${f.issueId}` } : {}),
      },
    };
  };

  const immediate = firings.filter((f) => f.rule.digest_minutes === null);
  const ids: string[] = [];
  if (immediate.length > 0) {
    const rows = await queryRows<{ id: string }>(
      em,
      `INSERT INTO alert_deliveries (rule_id, project_id, issue_id, kind, payload, enqueued_at)
       SELECT k.rule_id, k.project_id, k.issue_id, k.kind, k.payload, now()
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::jsonb[]) AS k(rule_id, project_id, issue_id, kind, payload)
       RETURNING id`,
      [
        immediate.map((f) => f.rule.id),
        immediate.map((f) => f.rule.project_id),
        immediate.map((f) => f.issueId),
        immediate.map((f) => f.rule.kind),
        immediate.map((f) => JSON.stringify(payloadOf(f))),
      ],
    );
    ids.push(...rows.map((r) => r.id));
  }

  const digested = new Map<string, Firing[]>();
  for (const f of firings) {
    if (f.rule.digest_minutes === null) continue;
    digested.set(f.rule.id, [...(digested.get(f.rule.id) ?? []), f]);
  }
  for (const ruleId of [...digested.keys()].sort()) {
    ids.push(...(await addToDigest(em, digested.get(ruleId)!, payloadOf, options)));
  }
  return ids;
}

/**
 * Digest rules: firings go into the rule's open digest delivery, sent once when it closes.
 * It is due (`next_attempt_at`) when it closes by the tracker's clock, for a rule that goes quiet
 * (the dispatcher's sweeper, on the same clock, picks it up then); a firing that finds it closed
 * releases it at once (returned, to be queued) and opens the next one. A
 * digest the dispatcher has already claimed is never added to.
 */
async function addToDigest(
  em: EntityManager,
  firings: Firing[],
  payloadOf: (f: Firing) => Record<string, unknown>,
  options: EvaluateOptions,
): Promise<string[]> {
  const rule = firings[0].rule;
  const now = options.now;
  const closesAt = now + rule.digest_minutes! * MINUTE;
  // Locks the rule's digest row (a no-op update of an existing one) so workers add in turn.
  const [open] = await queryRows<{ delivery_id: string | null; closes_at: Date }>(
    em,
    `INSERT INTO alert_digests (rule_id, closes_at) VALUES ($1, $2)
     ON CONFLICT (rule_id) DO UPDATE SET rule_id = excluded.rule_id
     RETURNING delivery_id, closes_at`,
    [rule.id, iso(closesAt)],
  );
  const items = firings.map((f) => ({ kind: rule.kind, triggeredAt: iso(now), ...payloadOf(f) }));
  if (open.delivery_id && new Date(open.closes_at).getTime() > now) {
    const added = await queryRows<{ id: string }>(
      em,
      `UPDATE alert_deliveries SET payload = jsonb_set(jsonb_set(jsonb_set(payload,
          '{digest,items}', (SELECT coalesce(jsonb_agg(x ORDER BY n), '[]'::jsonb)
             FROM jsonb_array_elements((payload #> '{digest,items}') || $2::jsonb) WITH ORDINALITY AS t(x, n)
            WHERE n <= $4)),
          '{digest,count}', to_jsonb((payload #>> '{digest,count}')::int + $3)),
          '{digest,lastAt}', to_jsonb($5::text))
        WHERE id = $1 AND status = 'pending' AND attempts = 0
        RETURNING id`,
      [open.delivery_id, JSON.stringify(items), items.length, DIGEST_ITEMS_MAX, iso(now)],
    );
    if (added.length > 0) return [];
  }
  const released = open.delivery_id
    ? await queryRows<{ id: string }>(
        em,
        `UPDATE alert_deliveries SET next_attempt_at = least(next_attempt_at, now()), enqueued_at = now()
          WHERE id = $1 AND status = 'pending' AND attempts = 0 RETURNING id`,
        [open.delivery_id],
      )
    : [];
  const first = payloadOf(firings[0]);
  const payload = {
    // The first firing's facts at the top level, so a receiver that knows only single alerts still
    // shows something true; `digest` has them all.
    ...first,
    digest: {
      minutes: rule.digest_minutes,
      count: items.length,
      openedAt: iso(now),
      lastAt: iso(now),
      closesAt: iso(closesAt),
      items: items.slice(0, DIGEST_ITEMS_MAX),
    },
  };
  // Due when it closes, by the tracker's clock: the dispatcher decides due-ness by the same
  // clock (decision 027), so a digest closed by a moved clock is not also held by the database's.
  const [row] = await queryRows<{ id: string }>(
    em,
    `INSERT INTO alert_deliveries (rule_id, project_id, issue_id, kind, payload, next_attempt_at, enqueued_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::timestamptz, NULL) RETURNING id`,
    [rule.id, rule.project_id, firings[0].issueId, rule.kind, JSON.stringify(payload), iso(closesAt)],
  );
  await em.query(`UPDATE alert_digests SET delivery_id = $2, closes_at = $3 WHERE rule_id = $1`, [
    rule.id,
    row.id,
    iso(closesAt),
  ]);
  return released.map((r) => r.id);
}
