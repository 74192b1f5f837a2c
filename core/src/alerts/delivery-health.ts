import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';

/** How far back "recent" reaches for a rule's delivery warning. */
export const RECENT_DELIVERIES_MS = 24 * 60 * 60_000;

export interface AlertDeliveryHealth {
  /** Deliveries of the last 24 hours that failed for good or wait for a retry after a failed attempt. */
  recentFailures: number;
  /**
   * The rule's latest attempted delivery of the last 24 hours (test sends included, so a test
   * that works after fixing the URL clears it) failed or is waiting to be retried.
   */
  failing: boolean;
}

/**
 * For the warning on a rule: one query for a list of rules the caller already may read (the
 * api's field resolver runs it for rules `alertRules` returned). `now` is the tracker's clock.
 */
export async function findAlertDeliveryHealth(
  ds: DataSource,
  ruleIds: readonly string[],
  now: number,
): Promise<Map<string, AlertDeliveryHealth>> {
  const health = new Map<string, AlertDeliveryHealth>(ruleIds.map((id) => [id, { recentFailures: 0, failing: false }]));
  if (ruleIds.length === 0) return health;
  const rows = await queryRows<{ rule_id: string; recent_failures: number; latest_failed: boolean | null }>(
    ds,
    `SELECT r.id AS rule_id,
       (SELECT count(*)::int FROM alert_deliveries d
         WHERE d.rule_id = r.id AND d.created_at > $2
           AND (d.status = 'failed' OR (d.status = 'pending' AND d.attempts > 0))) AS recent_failures,
       (SELECT d.status <> 'delivered' FROM alert_deliveries d
         WHERE d.rule_id = r.id AND d.last_attempt_at > $2 AND d.status IN ('delivered', 'failed', 'pending')
         -- A held clock can give a test send the same attempt time as the failure before it: the
         -- row written later is the latest.
         ORDER BY d.last_attempt_at DESC, d.created_at DESC LIMIT 1) AS latest_failed
     FROM unnest($1::uuid[]) AS r(id)`,
    [ruleIds, new Date(now - RECENT_DELIVERIES_MS).toISOString()],
  );
  for (const r of rows) health.set(r.rule_id, { recentFailures: r.recent_failures, failing: r.latest_failed === true });
  return health;
}
