import { randomUUID } from 'node:crypto';
import { AppError } from '../errors';
import { CHECK_IN_STATUSES, MAX_CHECK_IN_DURATION_MS, type CheckInBody, type MonitorConfig } from './check-in.schema';

const UNIT_MINUTES: Record<string, number> = {
  minute: 1,
  hour: 60,
  day: 1440,
  week: 10080,
  month: 43200,
  year: 525600,
};

function bad(message: string): AppError {
  return new AppError('BAD_USER_INPUT', message);
}

/** Sentry's 32-hex ids (or a dashed UUID) as a UUID; absent = a fresh one. */
export function checkInIdOf(value: unknown): string {
  if (value === undefined || value === null || value === '') return randomUUID();
  const hex = typeof value === 'string' ? value.replace(/-/g, '').toLowerCase() : '';
  if (!/^[0-9a-f]{32}$/.test(hex)) throw bad('check_in_id: a UUID (32 hex digits, dashes optional)');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Sentry's `monitor_config` in our words (units to minutes); fields are checked when the monitor is written. */
export function mapSentryMonitorConfig(raw: unknown): MonitorConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw bad('monitor_config: must be an object');
  const c = raw as Record<string, unknown>;
  const schedule = c.schedule as Record<string, unknown> | undefined;
  const config: MonitorConfig = {};
  if (schedule && typeof schedule === 'object') {
    if (schedule.type === 'crontab' && typeof schedule.value === 'string')
      config.crontab = schedule.value.slice(0, 128);
    else if (schedule.type === 'interval' && typeof schedule.value === 'number') {
      const unit = UNIT_MINUTES[String(schedule.unit ?? 'minute')];
      if (!unit) throw bad('monitor_config.schedule.unit: minute, hour, day, week, month or year');
      config.intervalMinutes = Math.round(schedule.value * unit);
    } else throw bad('monitor_config.schedule: {type: "crontab", value} or {type: "interval", value, unit}');
  }
  const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : undefined);
  if (typeof c.timezone === 'string') config.timezone = c.timezone.slice(0, 64);
  config.checkinMarginMinutes = int(c.checkin_margin);
  config.maxRuntimeMinutes = int(c.max_runtime);
  config.failureTolerance = int(c.failure_issue_threshold);
  config.recoveryThreshold = int(c.recovery_threshold);
  for (const k of Object.keys(config) as Array<keyof MonitorConfig>) if (config[k] === undefined) delete config[k];
  return config;
}

/** A duration in ms, checked: 0 to 24 h. */
export function checkDurationMs(ms: number, field: string): number {
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_CHECK_IN_DURATION_MS) {
    throw bad(`${field}: a duration of 0 to 24 hours (${MAX_CHECK_IN_DURATION_MS} ms)`);
  }
  return Math.round(ms);
}

/** A Sentry `check_in` item (issue 33): `monitor_slug`, `status`, `check_in_id`, `duration` in seconds. */
export function mapSentryCheckIn(raw: Record<string, unknown>, defaultEnvironment = 'production'): CheckInBody {
  const slug = typeof raw.monitor_slug === 'string' ? raw.monitor_slug : '';
  if (!slug) throw bad('monitor_slug: required');
  const status = raw.status;
  if (typeof status !== 'string' || !(CHECK_IN_STATUSES as readonly string[]).includes(status)) {
    throw bad('status: in_progress, ok or error');
  }
  const body: CheckInBody = {
    id: checkInIdOf(raw.check_in_id),
    slug: slug.toLowerCase(),
    status: status as CheckInBody['status'],
    environment:
      typeof raw.environment === 'string' && raw.environment ? raw.environment.slice(0, 64) : defaultEnvironment,
  };
  if (raw.duration !== undefined && raw.duration !== null) {
    if (typeof raw.duration !== 'number') throw bad('duration: seconds, a number');
    body.durationMs = checkDurationMs(raw.duration * 1000, 'duration');
  }
  const config = mapSentryMonitorConfig(raw.monitor_config);
  if (config) body.config = config;
  return body;
}
