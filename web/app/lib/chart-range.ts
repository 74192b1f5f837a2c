import type { SeriesRange } from '../graphql/graphql';

// The issue page chart's ranges (`?range=`), as the API's SeriesRange offers them.

export const CHART_RANGES = [
  { param: '1h', label: '1 h', words: 'the last hour', bucket: '5 minutes', bucketMs: 5 * 60_000, api: 'LAST_HOUR' },
  {
    param: '24h',
    label: '24 h',
    words: 'the last 24 hours',
    bucket: 'hour',
    bucketMs: 3_600_000,
    api: 'LAST_24_HOURS',
  },
  {
    param: '7d',
    label: '7 d',
    words: 'the last 7 days',
    bucket: '6 hours',
    bucketMs: 6 * 3_600_000,
    api: 'LAST_7_DAYS',
  },
  { param: '30d', label: '30 d', words: 'the last 30 days', bucket: 'day', bucketMs: 86_400_000, api: 'LAST_30_DAYS' },
] as const satisfies ReadonlyArray<{
  param: string;
  label: string;
  words: string;
  bucket: string;
  bucketMs: number;
  api: SeriesRange;
}>;

export type ChartRange = (typeof CHART_RANGES)[number];

/** The range a URL asks for; anything else is the default, 24 hours. */
export function readChartRange(value: string | null): ChartRange {
  return CHART_RANGES.find((r) => r.param === value) ?? CHART_RANGES[1];
}

// The dashboard's one date style (lib/format.ts), cut to what a tick has room for. Fixed locale
// and time zone: the server render and the hydrating browser must print the same.
const dayMonth = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayMonthYear = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/**
 * A bucket's start as its tick reads: the time within a day; with the date when the range spans
 * days ("27 Nov 06:00", "27 Nov"), so a 7- or 30-day axis says which days it shows.
 */
export function bucketLabel(iso: string, range: ChartRange['param']): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  if (range === '30d') return dayMonth.format(time);
  if (range === '7d') return `${dayMonth.format(time)} ${clock(time)}`;
  return clock(time);
}

/** What one column covers, for its tooltip: "1 Jan 2026, 01:00–02:00 UTC", or the day for 30 days. */
export function bucketSpan(iso: string, range: ChartRange): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  if (range.param === '30d') return `${dayMonthYear.format(time)} UTC`;
  return `${dayMonthYear.format(time)}, ${clock(time)}–${clock(time + range.bucketMs)} UTC`;
}

function clock(time: number): string {
  return new Date(time).toISOString().slice(11, 16);
}
