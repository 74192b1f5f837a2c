import type { DataSource } from 'typeorm';
import { requireProjectAccess, type Caller } from '../access';
import { queryRows } from '../db/query-rows';
import { MONITOR_COLUMNS, toMonitor, type Monitor, type MonitorRow } from './monitor-row';

/** One environment's state of a monitor. */
export interface MonitorEnvironmentState {
  monitorId: string;
  environment: string;
  status: 'ok' | 'failing';
  consecutiveFailures: number;
  consecutiveSuccesses: number;
  expectedAt: Date | null;
  lastCheckInAt: Date | null;
  issueId: string | null;
}

/** One check-in (cron) or check (uptime): a small row, never a response body. */
export interface CheckIn {
  id: string;
  monitorId: string;
  environment: string;
  status: 'in_progress' | 'ok' | 'error' | 'missed' | 'timeout';
  durationMs: number | null;
  expectedAt: Date | null;
  statusCode: number | null;
  ttfbMs: number | null;
  responseBytes: number | null;
  tlsExpiresAt: Date | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const MAX_CHECK_INS_PAGE = 200;

/** The project's monitors, by slug. NOT_FOUND unless the caller may read the project. */
export async function listMonitors(ds: DataSource, caller: Caller, projectId: string): Promise<Monitor[]> {
  await requireProjectAccess(ds, caller, projectId, 'read', 'see monitors');
  const rows = await queryRows<MonitorRow>(
    ds,
    `SELECT ${MONITOR_COLUMNS} FROM monitors WHERE project_id = $1 ORDER BY slug`,
    [projectId],
  );
  return rows.map(toMonitor);
}

/** The environments of the given monitors (callers have proven access to the monitors). */
export async function listMonitorEnvironments(
  ds: DataSource,
  monitorIds: readonly string[],
): Promise<MonitorEnvironmentState[]> {
  if (monitorIds.length === 0) return [];
  const rows = await queryRows<Record<string, unknown>>(
    ds,
    `SELECT monitor_id, environment, status, consecutive_failures, consecutive_successes, expected_at,
            last_check_in_at, issue_id
       FROM monitor_environments WHERE monitor_id = ANY($1::uuid[]) ORDER BY environment`,
    [monitorIds],
  );
  return rows.map((r) => ({
    monitorId: r.monitor_id as string,
    environment: r.environment as string,
    status: r.status as 'ok' | 'failing',
    consecutiveFailures: Number(r.consecutive_failures),
    consecutiveSuccesses: Number(r.consecutive_successes),
    expectedAt: r.expected_at ? new Date(r.expected_at as string) : null,
    lastCheckInAt: r.last_check_in_at ? new Date(r.last_check_in_at as string) : null,
    issueId: (r.issue_id as string | null) ?? null,
  }));
}

const dateOrNull = (v: unknown) => (v == null ? null : new Date(v as string));

export function toCheckIn(r: Record<string, unknown>): CheckIn {
  return {
    id: r.id as string,
    monitorId: r.monitor_id as string,
    environment: r.environment as string,
    status: r.status as CheckIn['status'],
    durationMs: r.duration_ms == null ? null : Number(r.duration_ms),
    expectedAt: dateOrNull(r.expected_at),
    statusCode: r.status_code == null ? null : Number(r.status_code),
    ttfbMs: r.ttfb_ms == null ? null : Number(r.ttfb_ms),
    responseBytes: r.response_bytes == null ? null : Number(r.response_bytes),
    tlsExpiresAt: dateOrNull(r.tls_expires_at),
    error: (r.error as string | null) ?? null,
    createdAt: new Date(r.created_at as string),
    updatedAt: new Date(r.updated_at as string),
  };
}

/** A monitor's newest check-ins first, at most `first` (1–200). Access is the caller's to prove. */
export async function listCheckIns(ds: DataSource, monitorId: string, first: number): Promise<CheckIn[]> {
  const limit = Math.max(1, Math.min(MAX_CHECK_INS_PAGE, Math.trunc(first) || 1));
  const rows = await queryRows<Record<string, unknown>>(
    ds,
    `SELECT * FROM monitor_check_ins WHERE monitor_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [monitorId, limit],
  );
  return rows.map(toCheckIn);
}

/** Whether the project has a cron monitor with this slug (the ping URL's 404); no access check: the DSN key is the caller. */
export async function hasCronMonitor(ds: DataSource, projectId: string, slug: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    ds,
    `SELECT id FROM monitors WHERE project_id = $1 AND slug = $2 AND kind = 'cron'`,
    [projectId, slug],
  );
  return rows.length > 0;
}
