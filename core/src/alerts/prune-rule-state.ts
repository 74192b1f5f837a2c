import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';

/** How long an issue must have been quiet before its alert state may go. */
export const QUIET_ISSUE_STATE_DAYS = 30;

/**
 * Deletes the alert rules' per-issue state (`alert_rule_state`) that no longer decides anything:
 * rows of issues that were deleted (merged away, their project gone), and rows of issues quiet
 * for 30 days whose rule's action interval has passed since it last fired. Without it the table
 * grew by a row per (rule, issue) for good. What is lost for a quiet issue is only the "N events
 * since the last alert" line of its next alert; whether that alert fires is the same, since its
 * interval has passed. Rows of the kinds without an issue (`project`, `log`) stay: one per rule.
 * Run with the retention purge (hourly); `now` is the tracker's clock.
 */
export async function pruneAlertRuleState(ds: DataSource, options: { now?: Date } = {}): Promise<number> {
  const now = (options.now ?? new Date()).toISOString();
  const rows = await queryRows(
    ds,
    `DELETE FROM alert_rule_state s
      USING alert_rules r
      WHERE r.id = s.rule_id
        AND s.subject ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        AND (s.last_fired_at IS NULL
             OR s.last_fired_at < $1::timestamptz - make_interval(mins => r.action_interval_minutes))
        AND NOT EXISTS (SELECT 1 FROM issues i
                         WHERE i.id = s.subject::uuid
                           AND i.last_seen > $1::timestamptz - make_interval(days => $2::int))
      RETURNING 1`,
    [now, QUIET_ISSUE_STATE_DAYS],
  );
  return rows.length;
}
