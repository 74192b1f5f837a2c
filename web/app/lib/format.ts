// Fixed locale and time zone: the server render and the hydrating browser must print the same.
const dateTime = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
const numbers = new Intl.NumberFormat('en');

/** "23 Nov 2026, 16:40 UTC"; the input unchanged when it is not a date. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : `${dateTime.format(time)} UTC`;
}

export function formatNumber(value: number): string {
  return numbers.format(value);
}

/** `part` as a whole percentage of `whole` ("42%"); "<1%" rather than a misleading "0%". */
export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return '—';
  const percent = (part / whole) * 100;
  if (percent > 0 && percent < 0.5) return '<1%';
  return `${Math.round(percent)}%`;
}
