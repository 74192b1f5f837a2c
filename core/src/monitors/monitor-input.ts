import { checkTargetUrl } from '../security/outbound';
import { AppError } from '../errors';
import { checkSchedule, type MonitorSchedule } from './schedule';

export type MonitorKind = 'cron' | 'uptime';

/** What a person (or a Sentry SDK's `monitor_config`) sets on a monitor; absent = unchanged or default. */
export interface MonitorInput {
  slug?: string;
  name?: string;
  /** Cron monitors: a crontab (with `timezone`) or an interval. */
  crontab?: string | null;
  timezone?: string | null;
  /** Cron: the interval schedule; uptime: how often it is checked (1–60). */
  intervalMinutes?: number | null;
  checkinMarginMinutes?: number;
  maxRuntimeMinutes?: number;
  failureTolerance?: number;
  recoveryThreshold?: number;
  /** Uptime only. */
  url?: string;
  timeoutSeconds?: number;
}

/** A monitor's settings as stored, checked. */
export interface MonitorSettings {
  slug: string;
  name: string;
  schedule: MonitorSchedule | null;
  intervalMinutes: number | null;
  checkinMarginMinutes: number;
  maxRuntimeMinutes: number;
  failureTolerance: number;
  recoveryThreshold: number;
  url: string | null;
  timeoutMs: number | null;
}

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const MAX_NAME_CHARS = 128;
const MAX_URL_CHARS = 2048;

function bad(message: string): AppError {
  return new AppError('BAD_USER_INPUT', message);
}

function int(field: string, value: number, min: number, max: number, unit: string): number {
  if (!Number.isInteger(value) || value < min || value > max) throw bad(`${field}: ${min} to ${max} ${unit}`);
  return value;
}

/** A slug as the ping URL and Sentry's SDKs name the monitor: lower-case letters, digits, `-` and `_`. */
export function checkSlug(slug: string): string {
  if (!SLUG_PATTERN.test(slug)) {
    throw bad('slug: 1 to 64 lower-case letters, digits, "-" or "_", starting with a letter or digit');
  }
  return slug;
}

/**
 * An uptime URL: http or https, no user name or password in it (they would be stored and
 * shown), and, unless private targets are allowed, not a private or loopback address
 * literally (names are checked again when the check connects, after every redirect).
 */
export function checkUptimeUrl(input: string, allowPrivate: boolean): string {
  if (input.length > MAX_URL_CHARS) throw bad(`url: at most ${MAX_URL_CHARS} characters`);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw bad(`url: "${input.slice(0, 100)}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('url: only http and https URLs can be checked');
  if (url.username || url.password)
    throw bad('url: a URL with a user name or password is refused (it would be stored)');
  const checked = checkTargetUrl(url, allowPrivate);
  if ('problem' in checked) throw bad(`url: ${checked.problem.message}`);
  return url.toString();
}

/**
 * Merges `input` over `current` (or the kind's defaults) and checks every field; throws
 * BAD_USER_INPUT naming the first field that is wrong.
 */
export function resolveMonitorSettings(
  kind: MonitorKind,
  input: MonitorInput,
  current: MonitorSettings | null,
  allowPrivate: boolean,
): MonitorSettings {
  const slug = checkSlug(input.slug ?? current?.slug ?? '');
  const name = (input.name ?? current?.name ?? slug).trim() || slug;
  if (name.length > MAX_NAME_CHARS) throw bad(`name: at most ${MAX_NAME_CHARS} characters`);
  const failureTolerance = int(
    'failureTolerance',
    input.failureTolerance ?? current?.failureTolerance ?? (kind === 'uptime' ? 3 : 1),
    1,
    100,
    'consecutive failures',
  );
  const recoveryThreshold = int(
    'recoveryThreshold',
    input.recoveryThreshold ?? current?.recoveryThreshold ?? 1,
    1,
    100,
    'consecutive successes',
  );
  if (kind === 'uptime') {
    const rawUrl = input.url ?? current?.url;
    if (!rawUrl) throw bad('url: an uptime monitor needs the URL to check');
    const intervalMinutes = int(
      'intervalMinutes',
      input.intervalMinutes ?? current?.intervalMinutes ?? 1,
      1,
      60,
      'minutes',
    );
    const timeoutSeconds = int(
      'timeoutSeconds',
      input.timeoutSeconds ?? (current?.timeoutMs ?? 10_000) / 1000,
      1,
      60,
      'seconds',
    );
    return {
      slug,
      name,
      schedule: null,
      intervalMinutes,
      checkinMarginMinutes: 0,
      maxRuntimeMinutes: 0,
      failureTolerance,
      recoveryThreshold,
      url: checkUptimeUrl(rawUrl, allowPrivate),
      timeoutMs: timeoutSeconds * 1000,
    };
  }
  let schedule: MonitorSchedule | null = current?.schedule ?? null;
  if (input.crontab != null) {
    const timezone = input.timezone ?? (current?.schedule?.type === 'crontab' ? current.schedule.timezone : 'UTC');
    schedule = { type: 'crontab', crontab: input.crontab, timezone };
  } else if (input.intervalMinutes != null) {
    schedule = { type: 'interval', minutes: input.intervalMinutes };
  } else if (input.timezone != null && schedule?.type === 'crontab') {
    schedule = { ...schedule, timezone: input.timezone };
  }
  if (!schedule) throw bad('schedule: give a crontab (with a time zone) or an interval in minutes');
  schedule = checkSchedule(schedule);
  return {
    slug,
    name,
    schedule,
    intervalMinutes: schedule.type === 'interval' ? schedule.minutes : null,
    checkinMarginMinutes: int(
      'checkinMarginMinutes',
      input.checkinMarginMinutes ?? current?.checkinMarginMinutes ?? 1,
      1,
      1440,
      'minutes',
    ),
    maxRuntimeMinutes: int(
      'maxRuntimeMinutes',
      input.maxRuntimeMinutes ?? current?.maxRuntimeMinutes ?? 30,
      1,
      1440,
      'minutes',
    ),
    failureTolerance,
    recoveryThreshold,
    url: null,
    timeoutMs: null,
  };
}
