import type { DataSource } from 'typeorm';
import { requireProjectAccess, type Caller } from '../access';
import { queryRows } from '../db/query-rows';
import {
  METRIC_STATS_SQL,
  toVitalStats,
  vitalsWhere,
  type MetricStatsRow,
  type VitalsQuery,
  type VitalStats,
} from './vitals-query';

export interface VitalsSummary {
  /** Every stored report is one page view, whatever it measured. */
  pageViews: number;
  metrics: VitalStats[];
}

/**
 * p50/p75/p95 and good / needs-improvement / poor counts of each metric over the query's page
 * views: one statement, one pass over the project's reports in the range (index on project,
 * [environment,] received_at).
 */
export async function summarizeVitals(ds: DataSource, caller: Caller, q: VitalsQuery): Promise<VitalsSummary> {
  await requireProjectAccess(ds, caller, q.projectId, 'read', 'see web vitals');
  const where = vitalsWhere(q);
  const [row] = await queryRows<MetricStatsRow>(
    ds,
    `SELECT ${METRIC_STATS_SQL} FROM vitals_reports r WHERE ${where.sql}`,
    where.params,
  );
  return { pageViews: Number(row?.page_views ?? 0), metrics: toVitalStats(row) };
}

export const MAX_VITALS_PAGES = 100;

export interface PageVitals extends VitalsSummary {
  url: string;
}

/**
 * The most viewed pages (by page views, then URL) with each one's figures: the Performance
 * page's table. At most MAX_VITALS_PAGES. Two statements: counting every URL is cheap (a hash
 * aggregate); the percentiles are computed for the chosen pages only.
 */
export async function summarizeVitalsByUrl(
  ds: DataSource,
  caller: Caller,
  q: VitalsQuery,
  first: number,
): Promise<PageVitals[]> {
  await requireProjectAccess(ds, caller, q.projectId, 'read', 'see web vitals');
  const where = vitalsWhere(q);
  const n = where.params.length;
  const top = await queryRows<{ url: string; n: number }>(
    ds,
    `SELECT r.url, count(*)::int AS n FROM vitals_reports r WHERE ${where.sql}
     GROUP BY r.url ORDER BY n DESC, r.url ASC LIMIT $${n + 1}`,
    [...where.params, first],
  );
  if (top.length === 0) return [];
  const stats = await queryRows<MetricStatsRow & { url: string }>(
    ds,
    `SELECT r.url, ${METRIC_STATS_SQL} FROM vitals_reports r
     WHERE ${where.sql} AND r.url = ANY($${n + 1}::text[]) GROUP BY r.url`,
    [...where.params, top.map((p) => p.url)],
  );
  const byUrl = new Map(stats.map((s) => [s.url, s]));
  return top.map((p) => ({
    url: p.url,
    pageViews: Number(p.n),
    metrics: toVitalStats(byUrl.get(p.url)),
  }));
}
