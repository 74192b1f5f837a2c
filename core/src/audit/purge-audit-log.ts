import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';

/** How long audit rows are kept, on every plan (issue 32). */
export const AUDIT_RETENTION_DAYS = 365;

/**
 * Deletes audit rows older than a year, `chunk` rows per short transaction (the retention job
 * calls it hourly). The `created_at` index finds them; no partitions: the log grows with what
 * people do, not with traffic (decision 061).
 */
export async function purgeAuditLog(ds: DataSource, now: Date, chunk = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await queryRows(
      ds,
      `DELETE FROM audit_log WHERE id IN (
         SELECT id FROM audit_log WHERE created_at < $1::timestamptz - make_interval(days => $2::int) LIMIT $3)
       RETURNING 1`,
      [now.toISOString(), AUDIT_RETENTION_DAYS, chunk],
    );
    total += rows.length;
    if (rows.length < chunk) return total;
  }
}
