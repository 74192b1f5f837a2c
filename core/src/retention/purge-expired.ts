import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { PLANS } from '../plans';

export interface PurgeResult {
  events: number;
  logs: number;
  vitals: number;
  /** Comments and issue activity rows (issue timelines keep the plan's window too). */
  comments: number;
  activity: number;
  /** False when another process held the purge lock: it is doing the work. */
  ran: boolean;
}

/** An arbitrary constant naming the purge's advisory lock (one purger at a time across processes). */
const PURGE_LOCK = 7_340_001;

const TABLES = [
  { name: 'events', key: 'events', time: 'received_at', id: 'id' },
  { name: 'logs', key: 'logs', time: 'timestamp', id: 'ctid' },
  { name: 'vitals_reports', key: 'vitals', time: 'received_at', id: 'ctid' },
  // Comments before activity: a comment's COMMENTED row goes with it (foreign key cascade).
  { name: 'issue_comments', key: 'comments', time: 'created_at', id: 'id' },
  { name: 'issue_activity', key: 'activity', time: 'created_at', id: 'id' },
] as const;

/**
 * Deletes events, logs, vitals reports, comments and issue activity older than their organization's plan retention
 * (docs/quotas.md). Issues keep their counts and first/last seen: only the rows go. Works in chunks of
 * `chunk` rows, each its own short transaction, so it never holds locks the worker waits on for
 * long. Only one process purges at a time (an advisory lock taken per chunk).
 */
export async function purgeExpired(ds: DataSource, options: { chunk?: number; now?: Date } = {}): Promise<PurgeResult> {
  const chunk = options.chunk ?? 5_000;
  const now = (options.now ?? new Date()).toISOString();
  const days = [PLANS.free.retentionDays, PLANS.pro.retentionDays, PLANS.business.retentionDays];
  const shortest = Math.min(...days);
  const result: PurgeResult = { events: 0, logs: 0, vitals: 0, comments: 0, activity: 0, ran: true };
  for (const table of TABLES) {
    for (;;) {
      const deleted = await ds.transaction(async (em) => {
        const [lock] = await em.query('SELECT pg_try_advisory_xact_lock($1) AS ok', [PURGE_LOCK]);
        if (!lock.ok) return -1;
        // The plain bound on the shortest retention lets the planner use the time index first.
        const rows = await queryRows(
          em,
          `DELETE FROM ${table.name} WHERE ${table.id} IN (
             SELECT t.${table.id} FROM ${table.name} t
               JOIN projects p ON p.id = t.project_id
               JOIN organizations o ON o.id = p.organization_id
              WHERE t.${table.time} < $1::timestamptz - make_interval(days => $2::int)
                AND t.${table.time} < $1::timestamptz - make_interval(days =>
                      CASE o.plan WHEN 'free' THEN $3::int WHEN 'pro' THEN $4::int ELSE $5::int END)
              LIMIT $6)
           RETURNING 1`,
          [now, shortest, days[0], days[1], days[2], chunk],
        );
        return rows.length;
      });
      if (deleted < 0) return { ...result, ran: false };
      result[table.key] += deleted;
      if (deleted < chunk) break;
    }
  }
  return result;
}
