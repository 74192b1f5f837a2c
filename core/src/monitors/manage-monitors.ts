import type { DataSource, EntityManager } from 'typeorm';
import { isUuid, requireProjectAccess, type Caller } from '../access';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { planOf } from '../plans';
import type { PlanId } from '../entities';
import { resolveMonitorSettings, type MonitorInput, type MonitorKind, type MonitorSettings } from './monitor-input';
import {
  MONITOR_COLUMNS,
  SETTINGS_COLUMNS,
  settingsValues,
  toMonitor,
  type Monitor,
  type MonitorRow,
} from './monitor-row';

/** Options every change takes: whether uptime URLs may be private, and the time. */
export interface MonitorChangeOptions {
  allowPrivateTargets: boolean;
  now: Date;
}

const KIND_NAME: Record<MonitorKind, string> = { cron: 'cron', uptime: 'uptime' };

/**
 * Throws PLAN_REQUIRED when the organization of `projectId` already has its plan's number of
 * monitors of `kind`. Runs inside the creating transaction, after a lock per organization, so
 * two concurrent creates cannot both take the last place.
 */
export async function assertMonitorPlace(em: EntityManager, projectId: string, kind: MonitorKind): Promise<void> {
  const [org] = await queryRows<{ id: string; plan: PlanId }>(
    em,
    'SELECT o.id, o.plan FROM organizations o JOIN projects p ON p.organization_id = o.id WHERE p.id = $1',
    [projectId],
  );
  if (!org) throw new AppError('NOT_FOUND', 'Project not found');
  await em.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 33))', [`monitors/${org.id}`]);
  const [{ n }] = await queryRows<{ n: string }>(
    em,
    `SELECT count(*) AS n FROM monitors m JOIN projects p ON p.id = m.project_id
      WHERE p.organization_id = $1 AND m.kind = $2`,
    [org.id, kind],
  );
  const plan = planOf(org.plan);
  const limit = kind === 'cron' ? plan.cronMonitors : plan.uptimeMonitors;
  if (Number(n) >= limit) {
    throw new AppError(
      'PLAN_REQUIRED',
      `The ${plan.name} plan includes ${limit} ${KIND_NAME[kind]} monitor${limit === 1 ? '' : 's'} per organization and ` +
        `all are in use: delete one or upgrade (Free 1, Pro 20, Business 100)`,
    );
  }
}

/** Inserts a checked monitor (the plan's limit already taken); CONFLICT when the slug is used in the project. */
export async function insertMonitor(
  em: EntityManager,
  projectId: string,
  kind: MonitorKind,
  settings: MonitorSettings,
  now: Date,
): Promise<Monitor> {
  const values = settingsValues(settings);
  const placeholders = values.map((_, i) => `$${i + 4}`).join(', ');
  const rows = await queryRows<MonitorRow>(
    em,
    `INSERT INTO monitors (project_id, kind, created_at, ${SETTINGS_COLUMNS.join(', ')}) VALUES ($1, $2, $3, ${placeholders})
     ON CONFLICT (project_id, slug) DO NOTHING RETURNING ${MONITOR_COLUMNS}`,
    [projectId, kind, now, ...values],
  );
  if (rows.length === 0)
    throw new AppError('CONFLICT', `A monitor with the slug "${settings.slug}" exists in this project`);
  const monitor = toMonitor(rows[0]);
  if (kind === 'uptime') {
    // An uptime monitor has one state row, checked first right away.
    await em.query(
      `INSERT INTO monitor_environments (monitor_id, environment, expected_at, next_run_at, created_at)
       VALUES ($1, 'production', $2, $2, $2)`,
      [monitor.id, now],
    );
  }
  return monitor;
}

/** Creates a monitor in a project (every member: it is triage set-up, like a saved search). */
export async function createMonitor(
  ds: DataSource,
  caller: Caller,
  input: { projectId: string; kind: MonitorKind; settings: MonitorInput },
  options: MonitorChangeOptions,
): Promise<Monitor> {
  await requireProjectAccess(ds, caller, input.projectId, 'write', 'create monitors');
  const settings = resolveMonitorSettings(input.kind, input.settings, null, options.allowPrivateTargets);
  return ds.transaction(async (em) => {
    await assertMonitorPlace(em, input.projectId, input.kind);
    return insertMonitor(em, input.projectId, input.kind, settings, options.now);
  });
}

/** The monitor when the caller may do `need` on its project; NOT_FOUND otherwise (as for a missing id). */
export async function requireMonitor(
  on: DataSource | EntityManager,
  caller: Caller,
  id: string,
  need: 'read' | 'write',
  action: string,
): Promise<Monitor> {
  const notFound = new AppError('NOT_FOUND', 'Monitor not found');
  if (!isUuid(id)) throw notFound;
  const [row] = await queryRows<MonitorRow>(on, `SELECT ${MONITOR_COLUMNS} FROM monitors WHERE id = $1`, [id]);
  if (!row) throw notFound;
  try {
    await requireProjectAccess(on, caller, row.project_id, need, action);
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw notFound;
    throw err;
  }
  return toMonitor(row);
}

/**
 * Writes new settings over a monitor. A changed schedule moves each environment's next
 * expected slot to the first one after now: the new schedule never fails for a slot it did
 * not have.
 */
export async function writeMonitorSettings(
  em: EntityManager,
  monitor: Monitor,
  settings: MonitorSettings,
  now: Date,
): Promise<Monitor> {
  const values = settingsValues(settings);
  const sets = SETTINGS_COLUMNS.map((c, i) => `${c} = $${i + 3}`).join(', ');
  let rows: MonitorRow[];
  try {
    rows = await queryRows<MonitorRow>(
      em,
      `UPDATE monitors SET ${sets}, updated_at = $2 WHERE id = $1 RETURNING ${MONITOR_COLUMNS}`,
      [monitor.id, now, ...values],
    );
  } catch (err) {
    if (String((err as Error).message).includes('monitors_project_slug_key')) {
      throw new AppError('CONFLICT', `A monitor with the slug "${settings.slug}" exists in this project`);
    }
    throw err;
  }
  if (
    JSON.stringify(monitor.schedule) !== JSON.stringify(settings.schedule) ||
    monitor.intervalMinutes !== settings.intervalMinutes
  ) {
    // Recomputed by the scheduler on its next pass (reschedule = null expected slot).
    await em.query(`UPDATE monitor_environments SET expected_at = NULL, next_run_at = $2 WHERE monitor_id = $1`, [
      monitor.id,
      now,
    ]);
  }
  return toMonitor(rows[0]);
}

/** Changes a monitor's settings; fields left out keep their value. */
export async function updateMonitor(
  ds: DataSource,
  caller: Caller,
  input: { id: string; settings: MonitorInput },
  options: MonitorChangeOptions,
): Promise<Monitor> {
  const monitor = await requireMonitor(ds, caller, input.id, 'write', 'change monitors');
  const settings = resolveMonitorSettings(monitor.kind, input.settings, monitor, options.allowPrivateTargets);
  return ds.transaction((em) => writeMonitorSettings(em, monitor, settings, options.now));
}

/**
 * Pauses (or resumes) a monitor. A paused monitor records no failures; on resuming, each
 * environment expects the first slot after now, so the paused time never counts as missed.
 */
export async function pauseMonitor(
  ds: DataSource,
  caller: Caller,
  input: { id: string; paused: boolean },
  options: { now: Date },
): Promise<Monitor> {
  const monitor = await requireMonitor(ds, caller, input.id, 'write', 'pause monitors');
  return ds.transaction(async (em) => {
    const [row] = await queryRows<MonitorRow>(
      em,
      `UPDATE monitors SET paused = $2, updated_at = $3 WHERE id = $1 RETURNING ${MONITOR_COLUMNS}`,
      [monitor.id, input.paused, options.now],
    );
    await em.query(
      `UPDATE monitor_environments
          SET expected_at = NULL, in_progress_id = NULL, in_progress_since = NULL, next_run_at = $2
        WHERE monitor_id = $1`,
      [monitor.id, input.paused ? null : options.now],
    );
    return toMonitor(row);
  });
}

/** Deletes a monitor with its check-ins; its issues stay (they are the project's history). Returns the id. */
export async function deleteMonitor(ds: DataSource, caller: Caller, id: string): Promise<string> {
  const monitor = await requireMonitor(ds, caller, id, 'write', 'delete monitors');
  await ds.query('DELETE FROM monitors WHERE id = $1', [monitor.id]);
  return monitor.id;
}
