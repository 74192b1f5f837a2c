import type { DataSource } from 'typeorm';
import { requireProjectAccess, type Caller } from '../access';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { VITAL_NAMES, type VitalName } from '../events/vitals.schema';
import { VITAL_COLUMNS } from './thresholds';
import { METRIC_P75_SQL, vitalsWhere, type VitalsQuery } from './vitals-query';

export const VITALS_INTERVAL_SECONDS = { hour: 3600, day: 86_400 } as const;
export type VitalsInterval = keyof typeof VITALS_INTERVAL_SECONDS;

/** A chart has no use for more points, and each one is a group in the query. */
export const MAX_VITALS_BUCKETS = 1000;

export interface VitalsBucket {
  /** Buckets are aligned on the range's `from`: [start, start + interval). */
  start: Date;
  pageViews: number;
  /** p75 of each metric in the bucket; null when no page view measured it. */
  p75: Record<VitalName, number | null>;
}

/**
 * p75 of each metric per hour or day over the query's range, every bucket present (empty
 * ones with zero page views and null values) so a chart needs no gap-filling. Same
 * percentile definition as `summarizeVitals` (percentile_cont).
 */
export async function vitalsSeries(
  ds: DataSource,
  caller: Caller,
  q: VitalsQuery,
  interval: VitalsInterval,
): Promise<VitalsBucket[]> {
  await requireProjectAccess(ds, caller, q.projectId, 'read', 'see web vitals');
  const seconds = VITALS_INTERVAL_SECONDS[interval];
  const spanMs = q.range.to.getTime() - q.range.from.getTime();
  const count = Math.ceil(spanMs / (seconds * 1000));
  if (count > MAX_VITALS_BUCKETS) {
    throw new AppError(
      'BAD_USER_INPUT',
      `interval: ${count} buckets of one ${interval} over this range; at most ${MAX_VITALS_BUCKETS} (use a longer interval or a shorter range)`,
    );
  }
  const where = vitalsWhere(q);
  const n = where.params.length;
  // date_bin aligns on `from` ($2), so the buckets match the ones built below.
  const bucket = `date_bin(make_interval(secs => $${n + 1}), r.received_at, $2::timestamptz)`;
  const rows = await queryRows<Record<string, unknown> & { bucket: Date; page_views: number }>(
    ds,
    `SELECT ${bucket} AS bucket, ${METRIC_P75_SQL} FROM vitals_reports r WHERE ${where.sql} GROUP BY 1`,
    [...where.params, seconds],
  );
  const buckets: VitalsBucket[] = [];
  const index = new Map<number, VitalsBucket>();
  for (let i = 0; i < count; i++) {
    const start = new Date(q.range.from.getTime() + i * seconds * 1000);
    const b: VitalsBucket = {
      start,
      pageViews: 0,
      p75: Object.fromEntries(VITAL_NAMES.map((m) => [m, null])) as Record<VitalName, number | null>,
    };
    buckets.push(b);
    index.set(start.getTime(), b);
  }
  for (const row of rows) {
    const b = index.get(new Date(row.bucket).getTime());
    if (!b) continue;
    b.pageViews = Number(row.page_views);
    for (const m of VITAL_NAMES) {
      const v = row[`${VITAL_COLUMNS[m]}_p75`];
      b.p75[m] = v == null ? null : Number(v);
    }
  }
  return buckets;
}
