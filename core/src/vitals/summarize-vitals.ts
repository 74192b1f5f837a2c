import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import {
  METRIC_ROWS_SQL,
  METRIC_STATS_SQL,
  thresholdsJoinSql,
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
 * views: one scan of the project's reports in the range (index on project, received_at).
 */
export async function summarizeVitals(ds: DataSource, q: VitalsQuery): Promise<VitalsSummary> {
  const where = vitalsWhere(q);
  const t = thresholdsJoinSql(where.params.length + 1);
  const [views, stats] = await Promise.all([
    queryRows<{ n: number }>(ds, `SELECT count(*)::int AS n FROM vitals_reports r WHERE ${where.sql}`, where.params),
    queryRows<MetricStatsRow>(
      ds,
      `SELECT m.name, ${METRIC_STATS_SQL}
       FROM vitals_reports r ${METRIC_ROWS_SQL} ${t.sql}
       WHERE ${where.sql} AND m.value IS NOT NULL
       GROUP BY m.name`,
      [...where.params, ...t.params],
    ),
  ]);
  return { pageViews: Number(views[0]?.n ?? 0), metrics: toVitalStats(stats) };
}

export const MAX_VITALS_PAGES = 100;

export interface PageVitals extends VitalsSummary {
  url: string;
}

/**
 * The most viewed pages (by page views, then URL) with each one's figures: the Performance
 * page's table. At most MAX_VITALS_PAGES.
 */
export async function summarizeVitalsByUrl(ds: DataSource, q: VitalsQuery, first: number): Promise<PageVitals[]> {
  const where = vitalsWhere(q);
  const top = await queryRows<{ url: string; n: number }>(
    ds,
    `SELECT r.url, count(*)::int AS n FROM vitals_reports r WHERE ${where.sql}
     GROUP BY r.url ORDER BY n DESC, r.url ASC LIMIT $${where.params.length + 1}`,
    [...where.params, first],
  );
  if (top.length === 0) return [];
  const urlsParam = where.params.length + 1;
  const t = thresholdsJoinSql(urlsParam + 1);
  const stats = await queryRows<MetricStatsRow & { url: string }>(
    ds,
    `SELECT r.url, m.name, ${METRIC_STATS_SQL}
     FROM vitals_reports r ${METRIC_ROWS_SQL} ${t.sql}
     WHERE ${where.sql} AND r.url = ANY($${urlsParam}::text[]) AND m.value IS NOT NULL
     GROUP BY r.url, m.name`,
    [...where.params, top.map((p) => p.url), ...t.params],
  );
  return top.map((p) => ({
    url: p.url,
    pageViews: Number(p.n),
    metrics: toVitalStats(stats.filter((s) => s.url === p.url)),
  }));
}
