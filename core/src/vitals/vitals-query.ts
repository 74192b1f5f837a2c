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
  const clauses = ['r.project_id = $1', 'r.received_at >= $2', 'r.received_at < $3'];
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

/**
 * One row per (report, measured metric): the five columns turned into (name, value) rows, so
 * one GROUP BY computes every metric. Aggregates skip the NULLs of metrics a page view lacked
 * (INP needs an interaction).
 */
export const METRIC_ROWS_SQL = `CROSS JOIN LATERAL (VALUES ${VITAL_NAMES.map(
  (n) => `('${n}', r.${VITAL_COLUMNS[n]})`,
).join(', ')}) AS m(name, value)`;

/** Joins the thresholds (three array parameters starting at `$first`) to the metric rows as `t`. */
export function thresholdsJoinSql(first: number): { sql: string; params: unknown[] } {
  return {
    sql: `JOIN unnest($${first}::text[], $${first + 1}::float8[], $${first + 2}::float8[]) AS t(name, good, poor)
      ON t.name = m.name`,
    params: [
      [...VITAL_NAMES],
      VITAL_NAMES.map((n) => VITAL_THRESHOLDS[n].good),
      VITAL_NAMES.map((n) => VITAL_THRESHOLDS[n].poor),
    ],
  };
}

/**
 * Percentiles are PostgreSQL's `percentile_cont`: the continuous percentile, interpolating
 * linearly between the two nearest ranks (for n sorted values, position (n − 1)·p, counted
 * from 0), as NumPy's default and Excel's PERCENTILE.INC. The shares follow web-vitals'
 * rating: good ≤ good threshold < needs improvement ≤ poor threshold < poor.
 */
export const METRIC_STATS_SQL = `count(m.value)::int AS count,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY m.value) AS p50,
  percentile_cont(0.75) WITHIN GROUP (ORDER BY m.value) AS p75,
  percentile_cont(0.95) WITHIN GROUP (ORDER BY m.value) AS p95,
  count(*) FILTER (WHERE m.value <= t.good)::int AS good,
  count(*) FILTER (WHERE m.value > t.good AND m.value <= t.poor)::int AS needs_improvement,
  count(*) FILTER (WHERE m.value > t.poor)::int AS poor`;

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

export interface MetricStatsRow {
  name: VitalName;
  count: number;
  p50: number | null;
  p75: number | null;
  p95: number | null;
  good: number;
  needs_improvement: number;
  poor: number;
}

/** All five metrics in VITAL_NAMES order, the unmeasured ones with zero counts. */
export function toVitalStats(rows: MetricStatsRow[]): VitalStats[] {
  return VITAL_NAMES.map((metric) => {
    const r = rows.find((row) => row.name === metric);
    return {
      metric,
      count: r ? Number(r.count) : 0,
      p50: r?.p50 == null ? null : Number(r.p50),
      p75: r?.p75 == null ? null : Number(r.p75),
      p95: r?.p95 == null ? null : Number(r.p95),
      good: r ? Number(r.good) : 0,
      needsImprovement: r ? Number(r.needs_improvement) : 0,
      poor: r ? Number(r.poor) : 0,
    };
  });
}
