import type { DataSource } from 'typeorm';
import { fireMonitorAlerts } from '../alerts/monitor-alerts';
import { queryRows } from '../db/query-rows';
import { MONITOR_COLUMNS, toMonitor, type MonitorRow } from './monitor-row';
import { recordMonitorOutcome, type MonitorFailedTrigger } from './record-outcome';
import { cronFailureTitle, rescheduleEnvironment } from './schedule-environment';

const MINUTE = 60_000;
/** Due environments taken per transaction: a pass over many due monitors commits in steps. */
export const CRON_CLAIM_BATCH = 100;

export interface CronEvaluation {
  evaluated: number;
  missed: number;
  timedOut: number;
  alertDeliveryIds: string[];
}

/**
 * One pass of missed-check-in and timeout detection (docs/monitors.md), run by every worker.
 * Due cron environments (`next_run_at <= now`) are claimed with `FOR UPDATE SKIP LOCKED` and
 * evaluated in the claiming transaction: a second worker skips the rows the first holds, and a
 * worker killed mid-pass rolls its claim back for the next pass to take, so each deadline is
 * evaluated exactly once (decision 064). `now` is the caller's clock.
 */
export async function evaluateCronMonitors(
  ds: DataSource,
  options: { now: number; publicUrl: string; limit?: number },
): Promise<CronEvaluation> {
  const out: CronEvaluation = { evaluated: 0, missed: 0, timedOut: 0, alertDeliveryIds: [] };
  const limit = options.limit ?? CRON_CLAIM_BATCH;
  const now = new Date(options.now);
  for (;;) {
    const claimed = await ds.transaction(async (em) => {
      const due = await queryRows<
        MonitorRow & {
          environment: string;
          expected_at: Date | null;
          in_progress_id: string | null;
          in_progress_since: Date | null;
        }
      >(
        em,
        `SELECT ${MONITOR_COLUMNS.split(', ')
          .map((c) => `m.${c}`)
          .join(', ')},
                e.environment, e.expected_at, e.in_progress_id, e.in_progress_since
           FROM monitor_environments e JOIN monitors m ON m.id = e.monitor_id
          WHERE e.next_run_at <= $1 AND m.kind = 'cron'
          ORDER BY e.next_run_at LIMIT $2
          FOR UPDATE OF e SKIP LOCKED`,
        [now, limit],
      );
      const triggers: MonitorFailedTrigger[] = [];
      for (const row of due) {
        const monitor = toMonitor(row);
        const environment = row.environment;
        if (monitor.paused || !monitor.schedule) {
          await em.query(
            'UPDATE monitor_environments SET next_run_at = NULL WHERE monitor_id = $1 AND environment = $2',
            [monitor.id, environment],
          );
          continue;
        }
        const since = row.in_progress_since ? new Date(row.in_progress_since).getTime() : null;
        let inProgress: null | undefined = undefined;
        if (since !== null && since + monitor.maxRuntimeMinutes * MINUTE <= options.now) {
          out.timedOut += 1;
          inProgress = null;
          await em.query(
            `UPDATE monitor_check_ins SET status = 'timeout', duration_ms = $3, updated_at = $4
              WHERE id = $1 AND monitor_id = $2 AND status = 'in_progress'`,
            [row.in_progress_id, monitor.id, monitor.maxRuntimeMinutes * MINUTE, now],
          );
          const t = await recordMonitorOutcome(em, {
            monitor,
            environment,
            outcome: 'failure',
            title: cronFailureTitle(monitor, 'timeout', since),
            reason: `Monitor ${monitor.slug} was still in progress ${monitor.maxRuntimeMinutes} minutes after it started (${environment}): timed out`,
            now,
          });
          if (t) triggers.push(t);
        }
        const expected = row.expected_at ? new Date(row.expected_at).getTime() : null;
        let checkInAt: Date | null = null;
        if (expected !== null && expected + monitor.checkinMarginMinutes * MINUTE <= options.now) {
          out.missed += 1;
          await em.query(
            `INSERT INTO monitor_check_ins (monitor_id, project_id, environment, status, expected_at, created_at, updated_at)
             VALUES ($1, $2, $3, 'missed', $4, $5, $5)`,
            [monitor.id, monitor.projectId, environment, new Date(expected), now],
          );
          const t = await recordMonitorOutcome(em, {
            monitor,
            environment,
            outcome: 'failure',
            title: cronFailureTitle(monitor, 'missed', expected),
            reason: `${cronFailureTitle(monitor, 'missed', expected)} (${environment}): nothing came within ${monitor.checkinMarginMinutes} minute(s) of the slot`,
            now,
          });
          if (t) triggers.push(t);
          // Slots missed while no worker ran count once: the next expected is after now.
          checkInAt = now;
        }
        await rescheduleEnvironment(em, monitor, environment, { checkInAt, inProgress, now });
      }
      out.evaluated += due.length;
      out.alertDeliveryIds.push(
        ...(await fireMonitorAlerts(em, triggers, { now: options.now, publicUrl: options.publicUrl })),
      );
      return due.length;
    });
    if (claimed < limit) return out;
  }
}
