import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { fireMonitorAlerts } from '../alerts/monitor-alerts';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import type { CheckInBody, MonitorConfig } from './check-in.schema';
import { assertMonitorPlace, insertMonitor, writeMonitorSettings } from './manage-monitors';
import { resolveMonitorSettings } from './monitor-input';
import { MONITOR_COLUMNS, toMonitor, type Monitor, type MonitorRow } from './monitor-row';
import { recordMonitorOutcome, type MonitorFailedTrigger } from './record-outcome';
import { cronFailureTitle, rescheduleEnvironment } from './schedule-environment';

/** A check-in job as the worker prepares it. */
export interface PreparedCheckIn extends CheckInBody {
  projectId: string;
  receivedAt: Date;
}

export interface CheckInsResult {
  stored: number;
  /** Check-ins whose monitor does not exist (deleted after the edge looked) or whose config could not create it. */
  dropped: number;
  alertDeliveryIds: string[];
}

/**
 * Stores a batch's check-ins and applies the failure rules, in the batch's transaction
 * (docs/monitors.md). A `config` upserts the monitor first, within the project of the DSN key
 * only: a slug names a monitor of that project, so no SDK can reach another project's.
 */
export async function persistCheckIns(
  em: EntityManager,
  checkIns: readonly PreparedCheckIn[],
  options: { now: number; publicUrl: string },
): Promise<CheckInsResult> {
  const result: CheckInsResult = { stored: 0, dropped: 0, alertDeliveryIds: [] };
  if (checkIns.length === 0) return result;
  const triggers: MonitorFailedTrigger[] = [];
  for (const c of checkIns) {
    const monitor = await monitorFor(em, c);
    if (!monitor) {
      result.dropped += 1;
      continue;
    }
    const trigger = await storeCheckIn(em, monitor, c);
    if (trigger) triggers.push(trigger);
    result.stored += 1;
  }
  result.alertDeliveryIds = await fireMonitorAlerts(em, triggers, options);
  return result;
}

async function findMonitor(em: EntityManager, projectId: string, slug: string): Promise<Monitor | null> {
  const [row] = await queryRows<MonitorRow>(
    em,
    `SELECT ${MONITOR_COLUMNS} FROM monitors WHERE project_id = $1 AND slug = $2 AND kind = 'cron'`,
    [projectId, slug],
  );
  return row ? toMonitor(row) : null;
}

/** Sentry's units to ours: what `resolveMonitorSettings` reads. */
function inputOf(slug: string, config: MonitorConfig) {
  return { slug, ...config };
}

/**
 * The check-in's monitor, created or updated from its config first. A config that is not valid
 * (a bad crontab or zone) or over the plan's limit leaves the monitor as it was: the check-in
 * still counts for an existing monitor, and is dropped for one that does not exist.
 */
async function monitorFor(em: EntityManager, c: PreparedCheckIn): Promise<Monitor | null> {
  const existing = await findMonitor(em, c.projectId, c.slug);
  if (!c.config) return existing;
  try {
    const settings = resolveMonitorSettings('cron', inputOf(c.slug, c.config), existing, false);
    if (!existing) {
      await assertMonitorPlace(em, c.projectId, 'cron');
      return await insertMonitor(em, c.projectId, 'cron', settings, c.receivedAt);
    }
    const same =
      JSON.stringify({ ...existing, paused: undefined, id: undefined }) ===
      JSON.stringify({ ...existing, ...settings, paused: undefined, id: undefined });
    return same ? existing : await writeMonitorSettings(em, existing, settings, c.receivedAt);
  } catch (err) {
    if (err instanceof AppError) return existing;
    throw err;
  }
}

async function storeCheckIn(
  em: EntityManager,
  monitor: Monitor,
  c: PreparedCheckIn,
): Promise<MonitorFailedTrigger | null> {
  const at = c.receivedAt;
  await em.query(
    `INSERT INTO monitor_environments (monitor_id, environment, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (monitor_id, environment) DO NOTHING`,
    [monitor.id, c.environment, at],
  );
  const [env] = await queryRows<{ expected_at: Date | null; in_progress_id: string | null }>(
    em,
    `SELECT expected_at, in_progress_id FROM monitor_environments WHERE monitor_id = $1 AND environment = $2 FOR UPDATE`,
    [monitor.id, c.environment],
  );
  const expectedAt = env.expected_at ? new Date(env.expected_at) : null;

  // ok/error naming an in_progress check-in of this monitor close it; any other id is a new row
  // (an id of another monitor's check-in is never touched: the WHERE names this monitor).
  let closed = false;
  if (c.status !== 'in_progress') {
    const rows = await queryRows<{ id: string }>(
      em,
      `UPDATE monitor_check_ins
          SET status = $3, updated_at = $4,
              duration_ms = coalesce($5::int, least(86400000, greatest(0, (extract(epoch FROM ($4::timestamptz - created_at)) * 1000)::int)))
        WHERE id = $1 AND monitor_id = $2 AND status = 'in_progress' RETURNING id`,
      [c.id, monitor.id, c.status, at, c.durationMs ?? null],
    );
    closed = rows.length > 0;
  }
  if (!closed) {
    const inserted = await queryRows<{ id: string }>(
      em,
      `INSERT INTO monitor_check_ins (id, monitor_id, project_id, environment, status, duration_ms, expected_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [c.id, monitor.id, monitor.projectId, c.environment, c.status, c.durationMs ?? null, expectedAt, at],
    );
    if (inserted.length === 0) {
      const [mine] = await queryRows<{ monitor_id: string }>(
        em,
        'SELECT monitor_id FROM monitor_check_ins WHERE id = $1',
        [c.id],
      );
      // A redelivered job: already stored. Another monitor's id: stored under a fresh one.
      if (mine?.monitor_id === monitor.id) return null;
      await em.query(
        `INSERT INTO monitor_check_ins (id, monitor_id, project_id, environment, status, duration_ms, expected_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
        [randomUUID(), monitor.id, monitor.projectId, c.environment, c.status, c.durationMs ?? null, expectedAt, at],
      );
    }
  }

  // An ok or error ends the run in progress, named or not: the job is no longer running.
  const inProgress = c.status === 'in_progress' ? { id: c.id, since: at } : env.in_progress_id ? null : undefined;
  await rescheduleEnvironment(em, monitor, c.environment, {
    checkInAt: closed ? null : at,
    inProgress,
    lastCheckInAt: at,
    now: at,
  });
  if (monitor.paused || c.status === 'in_progress') return null;
  const slot = expectedAt ?? at;
  if (c.status === 'ok') {
    return recordMonitorOutcome(em, {
      monitor,
      environment: c.environment,
      outcome: 'success',
      title: cronFailureTitle(monitor, 'error', slot),
      reason: `Monitor ${monitor.slug} checked in ok${c.durationMs != null ? ` after ${Math.round(c.durationMs / 1000)} s` : ''}: recovered`,
      now: at,
    });
  }
  return recordMonitorOutcome(em, {
    monitor,
    environment: c.environment,
    outcome: 'failure',
    title: cronFailureTitle(monitor, 'error', slot),
    reason: `Monitor ${monitor.slug} reported an error (${c.environment})`,
    now: at,
  });
}
