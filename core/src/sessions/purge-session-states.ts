import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';

/**
 * How long a single session may still be updated: Sentry's five days. Past it, its state row only
 * takes room: a late update of it is then ignored as one without an init (decision 045).
 */
export const SESSION_STATE_DAYS = 5;

/**
 * Deletes session states not updated for SESSION_STATE_DAYS, `chunk` rows per transaction (the
 * retention purge calls it hourly under its lock). The counters they fed stay.
 */
export async function purgeSessionStates(ds: DataSource, now: Date, chunk = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await queryRows(
      ds,
      `DELETE FROM session_states WHERE (project_id, sid) IN (
         SELECT project_id, sid FROM session_states
          WHERE updated_at < $1::timestamptz - make_interval(days => $2::int) LIMIT $3)
       RETURNING 1`,
      [now.toISOString(), SESSION_STATE_DAYS, chunk],
    );
    total += rows.length;
    if (rows.length < chunk) return total;
  }
}
