import type { VitalName } from '../events/vitals.schema';

/**
 * The published Core Web Vitals thresholds (web.dev/articles/vitals, and the `web-vitals`
 * library's `*Thresholds`): a value at or below `good` is good, above `poor` is poor, in
 * between needs improvement. Milliseconds, except CLS (unitless). The one copy: the SQL that
 * counts shares takes these as parameters.
 */
export const VITAL_THRESHOLDS: Readonly<Record<VitalName, { good: number; poor: number }>> = {
  LCP: { good: 2500, poor: 4000 },
  INP: { good: 200, poor: 500 },
  CLS: { good: 0.1, poor: 0.25 },
  FCP: { good: 1800, poor: 3000 },
  TTFB: { good: 800, poor: 1800 },
};

/** The `vitals_reports` column of each metric. */
export const VITAL_COLUMNS: Readonly<Record<VitalName, string>> = {
  LCP: 'lcp',
  INP: 'inp',
  CLS: 'cls',
  FCP: 'fcp',
  TTFB: 'ttfb',
};
