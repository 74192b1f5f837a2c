import type { EntityManager } from 'typeorm';
import type { AlertTrigger } from '../alerts/outbox';
import { queryRows } from '../db/query-rows';
import { lifecycleStateOf, writeLifecycleState } from '../issues/transition-issues';
import { applyEvent, regressionReason, type ReleaseRecord } from '../lifecycle';
import { recordIssueActivities, type IssueActivityInput } from '../activity';

/** One inserted event, as the lifecycle step needs it. */
export interface LifecycleEvent {
  projectId: string;
  issueId: string;
  eventId: string;
  receivedAt: Date;
  timestamp: Date;
  release: string | null;
  environment: string;
  message: string;
  /** The event's user (`id:…`/`email:…`), or null: a snooze by users counts them. */
  userKey?: string | null;
}

/** Users a batch added to its issues (issue id → user keys): what a snooze by users counts. */
export type NewIssueUsers = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Applies the issue lifecycle (docs/releases-and-lifecycle.md) to the issues a batch touched, records the releases each issue appeared
 * in, and returns what should fire alerts. Runs in the batch's transaction after the issues
 * were upserted, which locked their rows: a concurrent worker with events for the same issue
 * waits, then sees the state this one committed, so one regression makes one transition and
 * one alert. Only inserted events count: a redelivered one already had its effect.
 */
export async function applyLifecycle(
  em: EntityManager,
  events: LifecycleEvent[],
  createdIssueIds: ReadonlySet<string>,
  newUsers: NewIssueUsers = new Map(),
): Promise<AlertTrigger[]> {
  if (events.length === 0) return [];
  // Issues a snooze's end reopened, with the reason ("100 more events since snoozed").
  const snoozeEndReasons = new Map<string, string>();
  const regressedAt = new Map<string, Date>();
  const firstInRelease = await recordIssueReleases(em, events);
  await recordIssueEnvironments(em, events);
  const triggers: AlertTrigger[] = [];
  // The timeline (core/src/activity), in this transaction: first seen and every regression's reason.
  const activity: IssueActivityInput[] = [];

  // NEW_RELEASE_ISSUE: an issue that existed before is seen in a release (for an environment)
  // for the first time; its first event in the batch with that release is the trigger.
  if (firstInRelease.size > 0) {
    const done = new Set<string>();
    for (const e of events) {
      if (e.release === null || createdIssueIds.has(e.issueId)) continue;
      const k = `${e.issueId}\u0000${e.environment}\u0000${e.release}`;
      if (!firstInRelease.has(k) || done.has(k)) continue;
      done.add(k);
      triggers.push({ kind: 'NEW_RELEASE_ISSUE', projectId: e.projectId, issueId: e.issueId, event: factsOf(e) });
    }
  }

  // NEW_ISSUE fires once per created issue, for its first event in the batch.
  const seenNew = new Set<string>();
  for (const e of events) {
    if (createdIssueIds.has(e.issueId) && !seenNew.has(e.issueId)) {
      seenNew.add(e.issueId);
      triggers.push({ kind: 'NEW_ISSUE', projectId: e.projectId, issueId: e.issueId, event: factsOf(e) });
      activity.push({
        issueId: e.issueId,
        projectId: e.projectId,
        kind: 'FIRST_SEEN',
        message: e.release
          ? `First seen in release ${e.release} (${e.environment})`
          : `First seen in ${e.environment} (no release)`,
        data: { eventId: e.eventId, release: e.release, environment: e.environment },
        at: e.receivedAt,
      });
    }
  }

  // Open issues (nearly all of them, nearly always) need nothing more: one indexed probe.
  const issueIds = [...new Set(events.map((e) => e.issueId))];
  const closed = await queryRows<
    Parameters<typeof lifecycleStateOf>[0] & { id: string; event_count: string | number; user_count: number }
  >(
    em,
    `SELECT i.id, i.status, i.is_regression, i.resolved_at, i.snoozed_until, i.snooze, i.event_count, i.user_count,
            r.id AS r_id, r.version AS r_version, r.environment AS r_environment, r.deployed_at AS r_deployed_at
       FROM issues i LEFT JOIN releases r ON r.id = i.resolved_in_release_id
      WHERE i.id = ANY($1::uuid[]) AND i.status <> 'open'`,
    [issueIds],
  );
  if (closed.length === 0) {
    await recordIssueActivities(em, activity);
    return triggers;
  }

  const closedIds = new Set(closed.map((c) => c.id));
  const relevant = events.filter((e) => closedIds.has(e.issueId));
  const facts = await releaseFacts(em, relevant);

  const byIssue = new Map<string, LifecycleEvent[]>();
  for (const e of relevant) byIssue.set(e.issueId, [...(byIssue.get(e.issueId) ?? []), e]);
  for (const row of closed) {
    const initial = lifecycleStateOf(row);
    let state = initial;
    // In the order ingest accepted them: a snooze ends at a point in that order.
    const ordered = byIssue.get(row.id)!.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
    // The counters already include this batch (bumped under the same lock): count back to
    // where they stood before it, then forward event by event, so "until 100 more events"
    // ends on exactly the 100th.
    const added = newUsers.get(row.id) ?? new Set<string>();
    let eventCount = Number(row.event_count) - ordered.length;
    let userCount = Number(row.user_count) - added.size;
    const counted = new Set<string>();
    for (const e of ordered) {
      eventCount += 1;
      if (e.userKey && added.has(e.userKey) && !counted.has(e.userKey)) {
        counted.add(e.userKey);
        userCount += 1;
      }
      const eventFacts = {
        receivedAt: e.receivedAt,
        release: e.release,
        releaseRecord: e.release ? (facts.records.get(recordKey(e.projectId, e.release, e.environment)) ?? null) : null,
        projectHasReleases: facts.projectsWithReleases.has(e.projectId),
        eventCount,
        userCount,
      };
      const outcome = applyEvent(state, eventFacts);
      if (outcome.regressed) {
        const reason = regressionReason(state, { ...eventFacts, environment: e.environment });
        activity.push({
          issueId: e.issueId,
          projectId: e.projectId,
          kind: 'REGRESSED',
          message: reason.message,
          data: { ...reason.data, eventId: e.eventId },
          at: e.receivedAt,
        });
      }
      state = outcome.state;
      if (outcome.regressed) {
        triggers.push({ kind: 'REGRESSED_ISSUE', projectId: e.projectId, issueId: e.issueId, event: factsOf(e) });
        if (outcome.reason) snoozeEndReasons.set(e.issueId, outcome.reason);
        regressedAt.set(e.issueId, e.receivedAt);
        break; // open now: the rest of the batch's events change nothing.
      }
    }
    if (state !== initial) await writeLifecycleState(em, row.id, state);
  }
  await recordRegressions(em, triggers, snoozeEndReasons, regressedAt);
  await recordIssueActivities(em, activity);
  return triggers;
}

/**
 * Which release reopened an issue, for release health's "regressions". Rare (only when an
 * issue regresses), so a batch without a regression pays nothing.
 */
async function recordRegressions(
  em: EntityManager,
  triggers: AlertTrigger[],
  reasons: ReadonlyMap<string, string>,
  // When the event that reopened each issue was received: release health counts regressions in
  // windows of received time, so the worker's own clock (late after a backlog) would misplace them.
  at: ReadonlyMap<string, Date>,
): Promise<void> {
  const regressed = triggers.filter((t) => t.kind === 'REGRESSED_ISSUE');
  if (regressed.length === 0) return;
  await em.query(
    `INSERT INTO issue_regressions (issue_id, project_id, release, environment, regressed_at, reason)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::timestamptz[], $6::text[])`,
    [
      regressed.map((t) => t.issueId),
      regressed.map((t) => t.projectId),
      regressed.map((t) => t.event.release),
      regressed.map((t) => t.event.environment),
      regressed.map((t) => at.get(t.issueId)!.toISOString()),
      regressed.map((t) => reasons.get(t.issueId) ?? null),
    ],
  );
}

/**
 * issue_environments: one upsert for the batch, per (issue, environment). What the issues
 * page's environment filter probes, instead of the issue's events.
 */
async function recordIssueEnvironments(em: EntityManager, events: LifecycleEvent[]): Promise<void> {
  const agg = new Map<
    string,
    { issueId: string; projectId: string; environment: string; first: Date; last: Date; n: number }
  >();
  for (const e of events) {
    const k = `${e.issueId}\u0000${e.environment}`;
    const a = agg.get(k);
    if (!a) {
      agg.set(k, {
        issueId: e.issueId,
        projectId: e.projectId,
        environment: e.environment,
        first: e.timestamp,
        last: e.timestamp,
        n: 1,
      });
    } else {
      a.n += 1;
      if (e.timestamp < a.first) a.first = e.timestamp;
      if (e.timestamp > a.last) a.last = e.timestamp;
    }
  }
  // Sorted, so two workers upserting overlapping rows take their locks in the same order.
  const rows = [...agg.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
  await em.query(
    `INSERT INTO issue_environments (issue_id, project_id, environment, first_seen, last_seen, event_count)
     SELECT * FROM unnest($1::uuid[], $6::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::bigint[])
     ON CONFLICT (issue_id, environment) DO UPDATE SET
       first_seen = least(issue_environments.first_seen, excluded.first_seen),
       last_seen = greatest(issue_environments.last_seen, excluded.last_seen),
       event_count = issue_environments.event_count + excluded.event_count`,
    [
      rows.map((r) => r.issueId),
      rows.map((r) => r.environment),
      rows.map((r) => r.first.toISOString()),
      rows.map((r) => r.last.toISOString()),
      rows.map((r) => r.n),
      rows.map((r) => r.projectId),
    ],
  );
}

function factsOf(e: LifecycleEvent): AlertTrigger['event'] {
  return { eventId: e.eventId, release: e.release, environment: e.environment, message: e.message };
}

function recordKey(projectId: string, version: string, environment: string): string {
  return `${projectId}\u0000${version}\u0000${environment}`;
}

/** The release records the events name (for their environment), and which projects have any. */
async function releaseFacts(
  em: EntityManager,
  events: LifecycleEvent[],
): Promise<{ records: Map<string, ReleaseRecord>; projectsWithReleases: Set<string> }> {
  const projectIds = [...new Set(events.map((e) => e.projectId))];
  const withRelease = events.filter((e) => e.release !== null);
  const [records, projects] = await Promise.all([
    withRelease.length === 0
      ? Promise.resolve([])
      : queryRows<{ id: string; project_id: string; version: string; environment: string; deployed_at: Date }>(
          em,
          `SELECT r.id, r.project_id, r.version, r.environment, r.deployed_at
             FROM releases r JOIN unnest($1::uuid[], $2::text[], $3::text[]) AS k(project_id, version, environment)
               ON r.project_id = k.project_id AND r.version = k.version AND r.environment = k.environment`,
          [
            withRelease.map((e) => e.projectId),
            withRelease.map((e) => e.release),
            withRelease.map((e) => e.environment),
          ],
        ),
    queryRows<{ project_id: string }>(
      em,
      `SELECT p.id AS project_id FROM unnest($1::uuid[]) AS p(id) WHERE EXISTS (SELECT 1 FROM releases r WHERE r.project_id = p.id)`,
      [projectIds],
    ),
  ]);
  return {
    records: new Map(
      records.map((r) => [
        recordKey(r.project_id, r.version, r.environment),
        { id: r.id, version: r.version, environment: r.environment, deployedAt: new Date(r.deployed_at) },
      ]),
    ),
    projectsWithReleases: new Set(projects.map((p) => p.project_id)),
  };
}

/**
 * issue_releases: one upsert for the batch, aggregated per (issue, environment, release).
 * Returns the keys (`issue\0environment\0release`) this batch created: an issue's first event
 * in that release. The row lock of the upsert makes that true for one worker only.
 */
async function recordIssueReleases(em: EntityManager, events: LifecycleEvent[]): Promise<Set<string>> {
  const agg = new Map<
    string,
    { issueId: string; environment: string; release: string; first: Date; last: Date; n: number }
  >();
  for (const e of events) {
    if (e.release === null) continue;
    const k = `${e.issueId}\u0000${e.environment}\u0000${e.release}`;
    const a = agg.get(k);
    if (!a)
      agg.set(k, {
        issueId: e.issueId,
        environment: e.environment,
        release: e.release,
        first: e.timestamp,
        last: e.timestamp,
        n: 1,
      });
    else {
      a.n += 1;
      if (e.timestamp < a.first) a.first = e.timestamp;
      if (e.timestamp > a.last) a.last = e.timestamp;
    }
  }
  if (agg.size === 0) return new Set();
  // Sorted, so two workers upserting overlapping rows take their locks in the same order.
  const rows = [...agg.values()].sort((a, b) =>
    a.issueId === b.issueId
      ? `${a.environment}\u0000${a.release}` < `${b.environment}\u0000${b.release}`
        ? -1
        : 1
      : a.issueId < b.issueId
        ? -1
        : 1,
  );
  const upserted = await queryRows<{ issue_id: string; environment: string; release: string; created: boolean }>(
    em,
    `INSERT INTO issue_releases (issue_id, environment, release, first_seen, last_seen, event_count)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::bigint[])
     ON CONFLICT (issue_id, environment, release) DO UPDATE SET
       first_seen = least(issue_releases.first_seen, excluded.first_seen),
       last_seen = greatest(issue_releases.last_seen, excluded.last_seen),
       event_count = issue_releases.event_count + excluded.event_count
     RETURNING issue_id, environment, release, (xmax = 0) AS created`,
    [
      rows.map((r) => r.issueId),
      rows.map((r) => r.environment),
      rows.map((r) => r.release),
      rows.map((r) => r.first.toISOString()),
      rows.map((r) => r.last.toISOString()),
      rows.map((r) => r.n),
    ],
  );
  return new Set(upserted.filter((r) => r.created).map((r) => `${r.issue_id}\u0000${r.environment}\u0000${r.release}`));
}
