import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { Issue } from '../entities';
import { AppError } from '../errors';
import {
  describeSnooze,
  reopen,
  resolve,
  snooze,
  type LifecycleState,
  type ReleaseRecord,
  type SnoozeRequest,
} from '../lifecycle';
import { isUuid, lockIssuesForCaller, type Caller } from '../access';
import { findNewestRelease } from '../releases';
import { recordIssueActivity, type IssueActivityKind } from '../activity/record-activity';
import { formatUtcMinute } from '../lifecycle/regression-reason';

/** At most this many issues in one bulk resolve: one transaction must stay short. */
export const MAX_BULK_ISSUES = 100;

interface LockedIssueRow {
  id: string;
  project_id: string;
  status: Issue['status'];
  is_regression: boolean;
  resolved_at: Date | null;
  snoozed_until: Date | null;
  snooze: Issue['snooze'];
  event_count: string | number;
  user_count: number;
  r_id: string | null;
  r_version: string | null;
  r_environment: string | null;
  r_deployed_at: Date | null;
}

/**
 * Locks the caller's issues among `ids` (access/ decides which: the others are simply absent)
 * and returns their lifecycle state, read after the lock so no concurrent change is lost.
 */
async function lockIssuesForTransition(em: EntityManager, caller: Caller, ids: string[]): Promise<LockedIssueRow[]> {
  const locked = await lockIssuesForCaller(em, caller, ids, 'write', 'change issues');
  if (locked.length === 0) return [];
  return queryRows<LockedIssueRow>(
    em,
    `SELECT i.id, i.project_id, i.status, i.is_regression, i.resolved_at, i.snoozed_until, i.snooze,
            i.event_count, i.user_count, r.id AS r_id, r.version AS r_version, r.environment AS r_environment, r.deployed_at AS r_deployed_at
       FROM issues i
       LEFT JOIN releases r ON r.id = i.resolved_in_release_id
      WHERE i.id = ANY($1::uuid[])
      ORDER BY i.id`,
    [locked.map((i) => i.id)],
  );
}

export function lifecycleStateOf(row: {
  status: Issue['status'];
  is_regression: boolean;
  resolved_at: Date | null;
  snoozed_until: Date | null;
  snooze?: Issue['snooze'];
  r_id: string | null;
  r_version: string | null;
  r_environment: string | null;
  r_deployed_at: Date | null;
}): LifecycleState {
  const resolvedIn: ReleaseRecord | null = row.r_id
    ? {
        id: row.r_id,
        version: row.r_version!,
        environment: row.r_environment!,
        deployedAt: new Date(row.r_deployed_at!),
      }
    : null;
  return {
    status: row.status,
    isRegression: row.is_regression,
    resolvedAt: row.resolved_at ? new Date(row.resolved_at) : null,
    resolvedIn,
    snoozedUntil: row.snoozed_until ? new Date(row.snoozed_until) : null,
    snooze: row.snooze ? { ...row.snooze, at: new Date(row.snooze.at) } : null,
  };
}

export async function writeLifecycleState(em: EntityManager, issueId: string, s: LifecycleState): Promise<void> {
  await em.query(
    `UPDATE issues SET status = $2, is_regression = $3, resolved_at = $4, resolved_in_release_id = $5, snoozed_until = $6,
            snooze = $7::jsonb
      WHERE id = $1`,
    [
      issueId,
      s.status,
      s.isRegression,
      s.resolvedAt?.toISOString() ?? null,
      s.resolvedIn?.id ?? null,
      s.snoozedUntil?.toISOString() ?? null,
      s.snooze ? JSON.stringify({ ...s.snooze, at: s.snooze.at.toISOString() }) : null,
    ],
  );
}

function checkIds(ids: string[]): string[] {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw new AppError('BAD_USER_INPUT', 'ids: name at least one issue');
  if (unique.length > MAX_BULK_ISSUES) throw new AppError('BAD_USER_INPUT', `ids: at most ${MAX_BULK_ISSUES} at once`);
  return unique.filter(isUuid);
}

/** What a person's transition records in the issue's activity (the actor is the caller). */
interface TransitionRecord {
  kind: IssueActivityKind;
  now: Date;
  describe: (before: LifecycleState, after: LifecycleState) => { message: string; data: Record<string, unknown> };
}

async function transition(
  ds: DataSource,
  caller: Caller,
  ids: string[],
  apply: (em: EntityManager, row: LockedIssueRow, state: LifecycleState) => Promise<LifecycleState>,
  record: TransitionRecord,
): Promise<Issue[]> {
  const valid = checkIds(ids);
  const changed = await ds.transaction(async (em) => {
    const rows = await lockIssuesForTransition(em, caller, valid);
    for (const row of rows) {
      const before = lifecycleStateOf(row);
      const after = await apply(em, row, before);
      if (after !== before) {
        await writeLifecycleState(em, row.id, after);
        const { message, data } = record.describe(before, after);
        await recordIssueActivity(em, {
          issueId: row.id,
          projectId: row.project_id,
          kind: record.kind,
          actorId: caller.userId,
          message,
          data: { ...data, from: before.status },
          at: record.now,
        });
      }
    }
    return rows.map((r) => r.id);
  });
  if (changed.length === 0) return [];
  const issues = await ds.manager.findBy(
    Issue,
    changed.map((id) => ({ id })),
  );
  const order = new Map(ids.map((id, i) => [id, i]));
  return issues.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/**
 * Resolves the user's issues among `ids`; each records the project's newest release as
 * "resolved in". Issues that are missing or not the user's are left out of the result.
 */
export async function resolveIssues(
  ds: DataSource,
  { caller, ids, now = new Date() }: { caller: Caller; ids: string[]; now?: Date },
): Promise<Issue[]> {
  const newest = new Map<string, ReleaseRecord | null>();
  return transition(
    ds,
    caller,
    ids,
    async (em, row, state) => {
      if (!newest.has(row.project_id)) newest.set(row.project_id, await findNewestRelease(em, row.project_id));
      return resolve(state, { now, newestRelease: newest.get(row.project_id)! });
    },
    {
      kind: 'RESOLVED',
      now,
      describe: (_before, after) => ({
        message: after.resolvedIn
          ? `Resolved in release ${after.resolvedIn.version} (${after.resolvedIn.environment})`
          : 'Resolved (the project had no release)',
        data: { resolvedIn: after.resolvedIn?.version ?? null, environment: after.resolvedIn?.environment ?? null },
      }),
    },
  );
}

/**
 * Snoozes one of the caller's issues until a time, for some minutes, or until N more events or
 * users (exactly one; `SnoozeRequest`). A count snooze starts from the issue's counters read
 * under its row lock, the lock the worker's counter updates take too, so no event is missed or
 * counted twice. NOT_FOUND when it is missing or not theirs.
 */
export async function snoozeIssue(
  ds: DataSource,
  { caller, id, now = new Date(), ...request }: { caller: Caller; id: string; now?: Date } & SnoozeRequest,
): Promise<Issue> {
  const [issue] = await transition(
    ds,
    caller,
    [id],
    async (_em, row, state) =>
      snooze(state, { now, eventCount: Number(row.event_count), userCount: Number(row.user_count), ...request }),
    {
      kind: 'SNOOZED',
      now,
      describe: (_before, after) => ({
        message: `Snoozed ${snoozePhrase(after)}`,
        data: {
          kind: after.snooze?.kind ?? 'until',
          until: after.snoozedUntil?.toISOString() ?? null,
          minutes: after.snooze?.minutes ?? null,
          forEvents: after.snooze?.forEvents ?? null,
          forUsers: after.snooze?.forUsers ?? null,
        },
      }),
    },
  );
  if (!issue) throw new AppError('NOT_FOUND', 'Issue not found');
  return issue;
}

/** Reopens one of the caller's issues; NOT_FOUND when it is missing or not theirs. */
export async function reopenIssue(
  ds: DataSource,
  { caller, id, now = new Date() }: { caller: Caller; id: string; now?: Date },
): Promise<Issue> {
  const [issue] = await transition(ds, caller, [id], async (_em, _row, state) => reopen(state), {
    kind: 'REOPENED',
    now,
    describe: (before) => ({
      message: before.status === 'snoozed' ? 'Reopened (snooze cancelled)' : 'Reopened',
      data: {},
    }),
  });
  if (!issue) throw new AppError('NOT_FOUND', 'Issue not found');
  return issue;
}

/** "until 2026-11-25 12:03 UTC", "for 1 day", "until 100 more events": the timeline's words. */
function snoozePhrase(s: LifecycleState): string {
  if (s.snooze?.kind === 'until' || (!s.snooze && s.snoozedUntil)) return `until ${formatUtcMinute(s.snoozedUntil!)}`;
  return describeSnooze(s);
}
