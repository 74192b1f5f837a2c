import type { AlertFilter, AlertKind } from '../entities';
import { AppError } from '../errors';

/** What createAlertRule and updateAlertRule take beside kind and channel (docs/alerts.md). */
export interface AlertRuleSettingsInput {
  threshold?: number | null;
  windowMinutes?: number | null;
  query?: string | null;
  filter?: AlertFilterInput | null;
  actionIntervalMinutes?: number | null;
  digestMinutes?: number | null;
}

export interface AlertFilterInput {
  environments?: string[] | null;
  minLevel?: string | null;
  tags?: Array<{ key: string; value: string }> | null;
  release?: string | null;
  assigned?: boolean | null;
}

/** The settings as stored on the rule. */
export interface AlertRuleSettings {
  threshold: number | null;
  windowMinutes: number | null;
  query: string | null;
  filter: AlertFilter;
  actionIntervalMinutes: number;
  digestMinutes: number | null;
}

/** Kinds that count events or users in a window: they need `threshold` and `windowMinutes`. */
export const COUNTING_KINDS: ReadonlySet<AlertKind> = new Set(['ISSUE_FREQUENCY', 'USERS_AFFECTED', 'ERROR_SPIKE']);
/** Kinds whose subject is the project, not an issue: `assigned` means nothing to a log line. */
export const PROJECT_KINDS: ReadonlySet<AlertKind> = new Set(['ERROR_SPIKE', 'LOG_MATCH']);

export const DEFAULT_ACTION_INTERVAL_MINUTES = 30;
export const MAX_WINDOW_MINUTES = 1440;
export const MAX_ACTION_INTERVAL_MINUTES = 43_200;
export const MAX_DIGEST_MINUTES = 1440;
const MAX_QUERY = 200;
const MAX_ENVIRONMENTS = 20;
const MAX_TAGS = 10;
const MAX_TEXT = 200;
export const FILTER_LEVELS = ['fatal', 'error', 'warning', 'info'] as const;

function bad(message: string): never {
  throw new AppError('BAD_USER_INPUT', message);
}

function intIn(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    bad(`${field}: must be a whole number from ${min} to ${max}`);
  return value;
}

function text(field: string, value: string, max = MAX_TEXT): string {
  const t = value.trim();
  if (t.length === 0) bad(`${field}: must not be empty`);
  if (t.length > max) bad(`${field}: at most ${max} characters`);
  if (/[\u0000-\u001f\u007f]/.test(t)) bad(`${field}: must not contain control characters`);
  return t;
}

/** Checks a filter and returns its stored form (only the keys that filter). */
export function normalizeFilter(input: AlertFilterInput | null | undefined): AlertFilter {
  const f: AlertFilter = {};
  if (!input) return f;
  if (input.environments != null && input.environments.length > 0) {
    if (input.environments.length > MAX_ENVIRONMENTS) bad(`filter.environments: at most ${MAX_ENVIRONMENTS}`);
    f.environments = [...new Set(input.environments.map((e) => text('filter.environments', e)))];
  }
  if (input.minLevel != null) {
    if (!(FILTER_LEVELS as readonly string[]).includes(input.minLevel))
      bad(`filter.minLevel: one of ${FILTER_LEVELS.join(', ')}`);
    f.minLevel = input.minLevel as AlertFilter['minLevel'];
  }
  if (input.tags != null && input.tags.length > 0) {
    if (input.tags.length > MAX_TAGS) bad(`filter.tags: at most ${MAX_TAGS}`);
    f.tags = input.tags.map((t) => ({
      key: text('filter.tags.key', t.key),
      value: text('filter.tags.value', t.value),
    }));
  }
  if (input.release != null && input.release.trim() !== '') f.release = text('filter.release', input.release);
  if (input.assigned != null) f.assigned = input.assigned;
  return f;
}

/**
 * The settings a rule of `kind` ends up with: `current` (a rule being updated) patched with
 * what `input` gives, then checked as a whole, so changing the kind of a rule re-checks what
 * it needs. Messages name the field and say what is expected.
 */
export function resolveRuleSettings(
  kind: AlertKind,
  input: AlertRuleSettingsInput,
  current?: AlertRuleSettings,
): AlertRuleSettings {
  const s: AlertRuleSettings = current
    ? { ...current }
    : {
        threshold: null,
        windowMinutes: null,
        query: null,
        filter: {},
        actionIntervalMinutes: DEFAULT_ACTION_INTERVAL_MINUTES,
        digestMinutes: null,
      };
  if (input.threshold !== undefined) s.threshold = input.threshold;
  if (input.windowMinutes !== undefined) s.windowMinutes = input.windowMinutes;
  if (input.query !== undefined) s.query = input.query;
  if (input.filter !== undefined) s.filter = normalizeFilter(input.filter);
  if (input.actionIntervalMinutes !== undefined)
    s.actionIntervalMinutes = input.actionIntervalMinutes ?? DEFAULT_ACTION_INTERVAL_MINUTES;
  if (input.digestMinutes !== undefined) s.digestMinutes = input.digestMinutes;

  if (COUNTING_KINDS.has(kind)) {
    const what = kind === 'ERROR_SPIKE' ? 'errors per minute' : kind === 'USERS_AFFECTED' ? 'users' : 'events';
    if (s.threshold == null) bad(`threshold: required for ${kind} (more than how many ${what})`);
    if (s.windowMinutes == null) bad(`windowMinutes: required for ${kind} (in how many minutes)`);
    intIn('threshold', s.threshold, kind === 'ERROR_SPIKE' ? 1 : 0, 1_000_000_000);
    intIn('windowMinutes', s.windowMinutes, 1, MAX_WINDOW_MINUTES);
  } else {
    // Kept off the other kinds so a rule never carries a number that does nothing.
    if (input.threshold != null) bad(`threshold: only for ISSUE_FREQUENCY, USERS_AFFECTED and ERROR_SPIKE`);
    if (input.windowMinutes != null) bad(`windowMinutes: only for ISSUE_FREQUENCY, USERS_AFFECTED and ERROR_SPIKE`);
    s.threshold = null;
    s.windowMinutes = null;
  }
  if (kind === 'LOG_MATCH') {
    if (s.query == null || s.query.trim() === '')
      bad('query: required for LOG_MATCH (the text a log message must contain)');
    s.query = text('query', s.query, MAX_QUERY);
  } else {
    if (input.query != null && input.query !== '') bad('query: only for LOG_MATCH');
    s.query = null;
  }
  if (PROJECT_KINDS.has(kind) && s.filter.assigned !== undefined)
    bad(`filter.assigned: ${kind} alerts are about the project, not one issue; leave it out`);
  intIn('actionIntervalMinutes', s.actionIntervalMinutes, 0, MAX_ACTION_INTERVAL_MINUTES);
  if (s.digestMinutes != null) intIn('digestMinutes', s.digestMinutes, 1, MAX_DIGEST_MINUTES);
  return s;
}
