import { AppError } from '../errors';
import { VITAL_NAMES, type VitalName } from '../events/vitals.schema';
import { resolveTimeRange, type TimeRange } from '../time/time-range';
import { VITAL_COLUMNS, VITAL_THRESHOLDS } from './thresholds';

/** Default window of the Performance page, and the longest one a read may scan (retention tops out at 365 days). */
export const VITALS_DEFAULT_DAYS = 7;
export const VITALS_MAX_DAYS = 366;

/** What a client may filter vitals by; every field optional. Times are ISO 8601. */
export interface VitalsFilterInput {
  environment?: string | null;
  release?: string | null;
  /** One page (exact, without query or hash, as stored). */
  url?: string | null;
  from?: string | null;
  to?: string | null;
}

/** A validated vitals read: one project, a half-open time range on `received_at`, exact-match filters. */
export interface VitalsQuery {
  projectId: string;
  range: TimeRange;
  environment: string | null;
  release: string | null;
  url: string | null;
}

const MAX_FILTER_CHARS = 2048;

function optionalText(field: string, value: string | null | undefined): string | null {
  if (value == null) return null;
  if (value.length === 0 || value.length > MAX_FILTER_CHARS) {
    throw new AppError('BAD_USER_INPUT', `${field}: must be 1 to ${MAX_FILTER_CHARS} characters`);
  }
  return value;
}

/** Validates a client's filter. The caller has already checked that the user may see the project. */
export function resolveVitalsQuery(projectId: string, input: VitalsFilterInput = {}, now?: Date): VitalsQuery {
  return {
    projectId,
    range: resolveTimeRange(input, { defaultDays: VITALS_DEFAULT_DAYS, maxDays: VITALS_MAX_DAYS, now }),
    environment: optionalText('environment', input.environment),
    release: optionalText('release', input.release),
    url: optionalText('url', input.url),
  };
}

/** `WHERE` over `vitals_reports r` for a query, its parameters numbered from $1. */
export function vitalsWhere(q: VitalsQuery): { sql: string; params: unknown[] } {
  const params: unknown[] = [q.projectId, q.range.from.toISOString(), q.range.to.toISOString()];
  // A report without a page is a piece of a page load still waiting for it (decision 046).
  const clauses = ['r.project_id = $1', 'r.received_at >= $2', 'r.received_at < $3', 'r.url IS NOT NULL'];
  for (const [column, value] of [
    ['environment', q.environment],
    ['release', q.release],
    ['url', q.url],
  ] as const) {
    if (value === null) continue;
    params.push(value);
    clauses.push(`r.${column} = $${params.length}`);
  }
  return { sql: clauses.join(' AND '), params };
}

const literal = (n: number) => `${n}::float8`;

/**
 * The figures of every metric as columns of one aggregate row: `page_views`, and per metric
 * (column `c`, e.g. `lcp`) `c_count`, `c_pct` (p50, p75, p95 as an array: one sort per metric),
 * `c_good`, `c_ni`, `c_poor`. Column-wise rather than one row per (report, metric): a single
 * pass with no sort by metric name (which spilled to disk at 300,000 rows).
 *
 * Percentiles are PostgreSQL's `percentile_cont`: the continuous percentile, interpolating
 * linearly between the two nearest ranks (for n sorted values, position (n − 1)·p, counted
 * from 0), as NumPy's default and Excel's PERCENTILE.INC; aggregates skip the NULLs of metrics
 * a page view lacked (INP needs an interaction). The ratings follow web-vitals: good ≤ good
 * threshold < needs improvement ≤ poor threshold < poor. The thresholds are our constants
 * (VITAL_THRESHOLDS), written into the SQL as literals.
 */
export const METRIC_STATS_SQL = [
  'count(*)::int AS page_views',
  ...VITAL_NAMES.map((n) => {
    const c = `r.${VITAL_COLUMNS[n]}`;
    const a = VITAL_COLUMNS[n];
    const { good, poor } = VITAL_THRESHOLDS[n];
    return `count(${c})::int AS ${a}_count,
  percentile_cont(ARRAY[0.5, 0.75, 0.95]::float8[]) WITHIN GROUP (ORDER BY ${c}) AS ${a}_pct,
  count(*) FILTER (WHERE ${c} <= ${literal(good)})::int AS ${a}_good,
  count(*) FILTER (WHERE ${c} > ${literal(good)} AND ${c} <= ${literal(poor)})::int AS ${a}_ni,
  count(*) FILTER (WHERE ${c} > ${literal(poor)})::int AS ${a}_poor`;
  }),
].join(',\n  ');

/** p75 of every metric as columns `c_p75`, and `page_views`: one bucket of a series. */
export const METRIC_P75_SQL = [
  'count(*)::int AS page_views',
  ...VITAL_NAMES.map(
    (n) => `percentile_cont(0.75) WITHIN GROUP (ORDER BY r.${VITAL_COLUMNS[n]}) AS ${VITAL_COLUMNS[n]}_p75`,
  ),
].join(',\n  ');

/** One metric's figures over a set of page views. Percentiles are null when nothing was measured. */
export interface VitalStats {
  metric: VitalName;
  /** Page views that measured this metric. */
  count: number;
  p50: number | null;
  p75: number | null;
  p95: number | null;
  good: number;
  needsImprovement: number;
  poor: number;
}

/** A row selected with METRIC_STATS_SQL. */
export type MetricStatsRow = Record<string, unknown> & { page_views: number };

/** An array column as the driver gave it: node-postgres parses float8[]; anything else may be text. */
function numbers(value: unknown): Array<number | null> {
  if (value == null) return [];
  if (Array.isArray(value)) return value.map((v) => (v == null ? null : Number(v)));
  return String(value)
    .replace(/^\{|\}$/g, '')
    .split(',')
    .map((v) => (v === 'NULL' ? null : Number(v)));
}

/** All five metrics in VITAL_NAMES order, the unmeasured ones with zero counts and null percentiles. */
export function toVitalStats(row: MetricStatsRow | undefined): VitalStats[] {
  return VITAL_NAMES.map((metric) => {
    const a = VITAL_COLUMNS[metric];
    const count = Number(row?.[`${a}_count`] ?? 0);
    const [p50 = null, p75 = null, p95 = null] = count > 0 ? numbers(row?.[`${a}_pct`]) : [];
    return {
      metric,
      count,
      p50,
      p75,
      p95,
      good: Number(row?.[`${a}_good`] ?? 0),
      needsImprovement: Number(row?.[`${a}_ni`] ?? 0),
      poor: Number(row?.[`${a}_poor`] ?? 0),
    };
  });
}
