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
