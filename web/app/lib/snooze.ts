/** The snooze choices the dashboard offers, as durations; "until a date" is handled separately. */
export const SNOOZE_DURATIONS = [
  { value: '1h', label: '1 hour', ms: 60 * 60 * 1000 },
  { value: '24h', label: '24 hours', ms: 24 * 60 * 60 * 1000 },
  { value: '7d', label: '7 days', ms: 7 * 24 * 60 * 60 * 1000 },
] as const;

/**
 * The ISO time a snooze ends, from a form: `duration` (one of the choices) or `until` (a
 * yyyy-mm-dd date, read as the start of that day in UTC). Null when neither is valid or the time
 * is not in the future; the API checks the future again, this only gives a clearer message.
 */
export function parseSnoozeUntil(form: FormData, now = Date.now()): string | null {
  const duration = SNOOZE_DURATIONS.find((d) => d.value === form.get('duration'));
  if (duration) return new Date(now + duration.ms).toISOString();
  const until = String(form.get('until') ?? '');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(until)) return null;
  const time = Date.parse(`${until}T00:00:00Z`);
  if (Number.isNaN(time) || time <= now) return null;
  return new Date(time).toISOString();
}

/** What `snoozeIssue` takes: exactly one condition. */
export type SnoozeRequest = { until: string } | { minutes: number } | { forEvents: number } | { forUsers: number };

/** Default counts offered by the issue page's snooze menu ("until 100 more events"). */
export const SNOOZE_DEFAULT_EVENTS = 100;
export const SNOOZE_DEFAULT_USERS = 10;

/**
 * The issue page's snooze menu: `kind` = `duration` (one of SNOOZE_DURATIONS, sent as minutes),
 * `events` / `users` (a whole number in `count`), or `until` (a yyyy-mm-dd date). An error
 * message in the user's words when the choice cannot be sent; the API checks again.
 */
export function parseSnoozeRequest(form: FormData, now = Date.now()): SnoozeRequest | { error: string } {
  const kind = String(form.get('kind') ?? '');
  if (kind === 'duration') {
    const duration = SNOOZE_DURATIONS.find((d) => d.value === form.get('duration'));
    return duration ? { minutes: duration.ms / 60_000 } : { error: 'Choose how long to snooze for.' };
  }
  if (kind === 'events' || kind === 'users') {
    const text = String(form.get('count') ?? '').trim();
    const count = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
    if (!(count >= 1)) return { error: `Enter how many more ${kind} end the snooze (a whole number from 1).` };
    return kind === 'events' ? { forEvents: count } : { forUsers: count };
  }
  if (kind === 'until') {
    const until = parseSnoozeUntil(form, now);
    return until ? { until } : { error: 'Choose a date in the future.' };
  }
  return { error: 'Choose how to snooze.' };
}

/** "until 100 more events (37 to go)", "for 24 hours", "until <time>": how the page says what ends a snooze. */
export function describeSnooze(
  snooze: { kind: string; forEvents?: number | null; forUsers?: number | null; remaining?: number | null } | null,
): string | null {
  if (!snooze) return null;
  const left = snooze.remaining == null ? '' : ` (${snooze.remaining} to go)`;
  if (snooze.kind === 'EVENTS')
    return `until ${snooze.forEvents} more ${snooze.forEvents === 1 ? 'event' : 'events'}${left}`;
  if (snooze.kind === 'USERS')
    return `until ${snooze.forUsers} more ${snooze.forUsers === 1 ? 'user' : 'users'}${left}`;
  return null;
}
