import type { MonitorKind, MonitorSettings } from './monitor-input';
import type { MonitorSchedule } from './schedule';

/** A monitor of a project (issue 33; docs/monitors.md). */
export interface Monitor extends MonitorSettings {
  id: string;
  projectId: string;
  kind: MonitorKind;
  paused: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface MonitorRow {
  id: string;
  project_id: string;
  kind: MonitorKind;
  slug: string;
  name: string;
  crontab: string | null;
  timezone: string;
  interval_minutes: number | null;
  checkin_margin_minutes: number;
  max_runtime_minutes: number;
  failure_tolerance: number;
  recovery_threshold: number;
  url: string | null;
  timeout_ms: number | null;
  paused: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

export const MONITOR_COLUMNS =
  'id, project_id, kind, slug, name, crontab, timezone, interval_minutes, checkin_margin_minutes, ' +
  'max_runtime_minutes, failure_tolerance, recovery_threshold, url, timeout_ms, paused, created_at, updated_at';

export function scheduleOf(
  r: Pick<MonitorRow, 'kind' | 'crontab' | 'timezone' | 'interval_minutes'>,
): MonitorSchedule | null {
  if (r.kind !== 'cron') return null;
  if (r.crontab) return { type: 'crontab', crontab: r.crontab, timezone: r.timezone };
  return { type: 'interval', minutes: r.interval_minutes ?? 60 };
}

export function toMonitor(r: MonitorRow): Monitor {
  return {
    id: r.id,
    projectId: r.project_id,
    kind: r.kind,
    slug: r.slug,
    name: r.name,
    schedule: scheduleOf(r),
    intervalMinutes: r.interval_minutes,
    checkinMarginMinutes: r.checkin_margin_minutes,
    maxRuntimeMinutes: r.max_runtime_minutes,
    failureTolerance: r.failure_tolerance,
    recoveryThreshold: r.recovery_threshold,
    url: r.url,
    timeoutMs: r.timeout_ms,
    paused: r.paused,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** The row's columns for `settings`, in the order of SETTINGS_COLUMNS. */
export const SETTINGS_COLUMNS = [
  'slug',
  'name',
  'crontab',
  'timezone',
  'interval_minutes',
  'checkin_margin_minutes',
  'max_runtime_minutes',
  'failure_tolerance',
  'recovery_threshold',
  'url',
  'timeout_ms',
] as const;

export function settingsValues(s: MonitorSettings): unknown[] {
  const crontab = s.schedule?.type === 'crontab' ? s.schedule : null;
  return [
    s.slug,
    s.name,
    crontab?.crontab ?? null,
    crontab?.timezone ?? 'UTC',
    s.intervalMinutes,
    s.checkinMarginMinutes,
    s.maxRuntimeMinutes,
    s.failureTolerance,
    s.recoveryThreshold,
    s.url,
    s.timeoutMs,
  ];
}
