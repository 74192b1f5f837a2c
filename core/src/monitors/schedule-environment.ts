import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { Monitor } from './monitor-row';
import { nextSlotAfter, slotLabel } from './schedule';

const MINUTE = 60_000;

/** The issue title of a cron failure: "Monitor nightly-backup missed its 02:00 check-in". */
export function cronFailureTitle(
  monitor: Pick<Monitor, 'slug' | 'schedule' | 'maxRuntimeMinutes'>,
  kind: 'missed' | 'timeout' | 'error',
  slotMs: Date | number,
): string {
  const label = monitor.schedule ? slotLabel(monitor.schedule, new Date(slotMs).getTime()) : '';
  if (kind === 'missed') return `Monitor ${monitor.slug} missed its ${label} check-in`;
  if (kind === 'timeout')
    return `Monitor ${monitor.slug} timed out: its ${label} run passed ${monitor.maxRuntimeMinutes} minutes`;
  return `Monitor ${monitor.slug} failed its ${label} check-in`;
}

/**
 * The slot a check-in at `atMs` fulfils is the one it falls in; the next expected is the first
 * slot after the check-in's minute (as Sentry rounds), so a run at 02:00:05 for a 02:00 slot
 * expects tomorrow's, not today's again.
 */
export function nextExpectedAfter(monitor: Pick<Monitor, 'schedule'>, atMs: number): number {
  const minute = Math.floor(atMs / MINUTE) * MINUTE;
  return nextSlotAfter(monitor.schedule!, monitor.schedule!.type === 'interval' ? atMs : minute);
}

/**
 * Writes an environment's schedule after a check-in or an evaluation: the next expected slot
 * (moved past `checkInAt` when given, computed from `now` when it has none), the open
 * in_progress (`undefined` keeps it, null clears it), and `next_run_at`, when the scheduler must
 * look next: the earlier of the slot's deadline (slot + margin) and the run's (start + max
 * runtime). A paused monitor is never due.
 */
export async function rescheduleEnvironment(
  em: EntityManager,
  monitor: Monitor,
  environment: string,
  change: {
    checkInAt: Date | null;
    inProgress?: { id: string; since: Date } | null;
    lastCheckInAt?: Date;
    now: Date;
  },
): Promise<void> {
  const [row] = await queryRows<{
    expected_at: Date | null;
    in_progress_id: string | null;
    in_progress_since: Date | null;
  }>(
    em,
    'SELECT expected_at, in_progress_id, in_progress_since FROM monitor_environments WHERE monitor_id = $1 AND environment = $2',
    [monitor.id, environment],
  );
  if (!row) return;
  let expected = row.expected_at ? new Date(row.expected_at).getTime() : null;
  if (change.checkInAt) expected = nextExpectedAfter(monitor, change.checkInAt.getTime());
  else if (expected === null) expected = nextExpectedAfter(monitor, change.now.getTime());
  let inProgressId = row.in_progress_id;
  let inProgressSince = row.in_progress_since ? new Date(row.in_progress_since).getTime() : null;
  if (change.inProgress === null) {
    inProgressId = null;
    inProgressSince = null;
  } else if (change.inProgress) {
    inProgressId = change.inProgress.id;
    inProgressSince = change.inProgress.since.getTime();
  }
  const deadlines = [expected + monitor.checkinMarginMinutes * MINUTE];
  if (inProgressSince !== null) deadlines.push(inProgressSince + monitor.maxRuntimeMinutes * MINUTE);
  const nextRun = monitor.paused ? null : new Date(Math.min(...deadlines));
  await em.query(
    `UPDATE monitor_environments
        SET expected_at = $3, in_progress_id = $4, in_progress_since = $5, next_run_at = $6,
            last_check_in_at = coalesce($7, last_check_in_at)
      WHERE monitor_id = $1 AND environment = $2`,
    [
      monitor.id,
      environment,
      new Date(expected),
      inProgressId,
      inProgressSince === null ? null : new Date(inProgressSince),
      nextRun,
      change.lastCheckInAt ?? null,
    ],
  );
}
