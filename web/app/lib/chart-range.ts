import type { SeriesRange } from '../graphql/graphql';

// The issue page chart's ranges (`?range=`), as the API's SeriesRange offers them.

export const CHART_RANGES = [
  { param: '1h', label: '1 h', words: 'the last hour', bucket: '5 minutes', api: 'LAST_HOUR' },
  { param: '24h', label: '24 h', words: 'the last 24 hours', bucket: 'hour', api: 'LAST_24_HOURS' },
  { param: '7d', label: '7 d', words: 'the last 7 days', bucket: '6 hours', api: 'LAST_7_DAYS' },
  { param: '30d', label: '30 d', words: 'the last 30 days', bucket: 'day', api: 'LAST_30_DAYS' },
] as const satisfies ReadonlyArray<{ param: string; label: string; words: string; bucket: string; api: SeriesRange }>;

export type ChartRange = (typeof CHART_RANGES)[number];

/** The range a URL asks for; anything else is the default, 24 hours. */
export function readChartRange(value: string | null): ChartRange {
  return CHART_RANGES.find((r) => r.param === value) ?? CHART_RANGES[1];
}

/** A bucket's start as its tick reads (UTC, so the server render and the browser agree). */
export function bucketLabel(iso: string, range: ChartRange['param']): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const text = new Date(time).toISOString();
  if (range === '30d') return text.slice(5, 10);
  if (range === '7d') return `${text.slice(5, 10)} ${text.slice(11, 16)}`;
  return text.slice(11, 16);
}
