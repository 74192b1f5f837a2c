// Web Vitals display rules shared by the Performance page's cards, table and charts.

export type VitalMetric = 'LCP' | 'INP' | 'CLS' | 'FCP' | 'TTFB';
export type Rating = 'good' | 'needs-improvement' | 'poor';
export type Thresholds = { good: number; poor: number };

/** The order of the cards and columns: the API's order (Core Web Vitals first). */
export const METRICS: readonly VitalMetric[] = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'];

/**
 * web.dev's published thresholds, the same the API reports per metric (`thresholds`). Kept here
 * too because the per-page table and the time series carry only p75 values.
 */
export const THRESHOLDS: Record<VitalMetric, Thresholds> = {
  LCP: { good: 2500, poor: 4000 },
  INP: { good: 200, poor: 500 },
  CLS: { good: 0.1, poor: 0.25 },
  FCP: { good: 1800, poor: 3000 },
  TTFB: { good: 800, poor: 1800 },
};

export const METRIC_NAMES: Record<VitalMetric, string> = {
  LCP: 'Largest Contentful Paint',
  INP: 'Interaction to Next Paint',
  CLS: 'Cumulative Layout Shift',
  FCP: 'First Contentful Paint',
  TTFB: 'Time to First Byte',
};

export const RATING_LABELS: Record<Rating, string> = {
  good: 'Good',
  'needs-improvement': 'Needs improvement',
  poor: 'Poor',
};

/** Good at or below `good`, poor above `poor` (web.dev), like the API's rating counts. */
export function rateVital(value: number, thresholds: Thresholds): Rating {
  if (value <= thresholds.good) return 'good';
  return value > thresholds.poor ? 'poor' : 'needs-improvement';
}

const milliseconds = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/** Milliseconds as "2,340 ms"; CLS is a unitless score, "0.105". Unmeasured: "—". */
export function formatVital(metric: VitalMetric, value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  // Three decimals at most, trailing zeros dropped: 0, 0.1, 0.105.
  if (metric === 'CLS') return String(Number(value.toFixed(3)));
  return `${milliseconds.format(value)} ms`;
}

export function formatShare(share: number | null | undefined): string {
  if (share === null || share === undefined) return '—';
  return `${Math.round(share * 100)}%`;
}

/** The ranges the page offers; the API's range is [now − span, now). */
export const RANGES = [
  { param: '24h', label: 'Last 24 hours', ms: 24 * 3_600_000, interval: 'HOUR' },
  { param: '7d', label: 'Last 7 days', ms: 7 * 24 * 3_600_000, interval: 'HOUR' },
  { param: '30d', label: 'Last 30 days', ms: 30 * 24 * 3_600_000, interval: 'DAY' },
] as const;

export type Range = (typeof RANGES)[number];

/** `?range=` as offered; anything else is the default, 7 days (the API's default too). */
export function parseRange(param: string | null): Range {
  return RANGES.find((r) => r.param === param) ?? RANGES[1];
}
