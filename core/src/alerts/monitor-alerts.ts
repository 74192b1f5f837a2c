import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { MonitorFailedTrigger } from '../monitors/record-outcome';
import { writeFirings, type EvaluateOptions, type Firing, type RuleRow } from './evaluate';

const MINUTE = 60_000;

/**
 * MONITOR_FAILED rules (issue 33) for monitor issues that opened or reopened, in the caller's
 * transaction: the same mutes (rule and issue), action interval (per rule and issue, in
 * `alert_rule_state`) and outbox as every other kind, so every channel and digests work alike.
 * Returns the deliveries to queue after commit.
 */
export async function fireMonitorAlerts(
  em: EntityManager,
  triggers: readonly MonitorFailedTrigger[],
  options: EvaluateOptions,
): Promise<string[]> {
  if (triggers.length === 0) return [];
  const projectIds = [...new Set(triggers.map((t) => t.projectId))];
  const rules = await queryRows<RuleRow>(
    em,
    `SELECT id, project_id, kind, threshold, window_minutes, query, filter, action_interval_minutes, digest_minutes,
            muted_until
       FROM alert_rules WHERE project_id = ANY($1::uuid[]) AND enabled AND kind = 'MONITOR_FAILED' ORDER BY id`,
    [projectIds],
  );
  if (rules.length === 0) return [];
  const now = options.now;
  const issueIds = [...new Set(triggers.map((t) => t.issueId))];
  const mutes = new Map(
    (
      await queryRows<{ id: string; alerts_muted_until: Date | null }>(
        em,
        'SELECT id, alerts_muted_until FROM issues WHERE id = ANY($1::uuid[])',
        [issueIds],
      )
    ).map((r) => [r.id, r.alerts_muted_until ? new Date(r.alerts_muted_until).getTime() : 0]),
  );
  const firings: Firing[] = [];
  for (const rule of rules) {
    if (rule.muted_until && new Date(rule.muted_until).getTime() > now) continue;
    for (const t of triggers) {
      if (t.projectId !== rule.project_id) continue;
      const envs = rule.filter?.environments;
      if (envs && envs.length > 0 && !envs.includes(t.environment)) continue;
      if ((mutes.get(t.issueId) ?? 0) > now) continue;
      // The state row is locked until commit: two workers fire a rule for an issue once per interval.
      const [state] = await queryRows<{ last_fired_at: Date | null }>(
        em,
        `INSERT INTO alert_rule_state (rule_id, subject, events_since) VALUES ($1, $2, 1)
         ON CONFLICT (rule_id, subject) DO UPDATE SET events_since = alert_rule_state.events_since + 1
         RETURNING last_fired_at`,
        [rule.id, t.issueId],
      );
      const last = state?.last_fired_at ? new Date(state.last_fired_at).getTime() : null;
      if (last !== null && now - last < rule.action_interval_minutes * MINUTE) continue;
      await em.query(
        `UPDATE alert_rule_state SET last_fired_at = $3, events_since = 0 WHERE rule_id = $1 AND subject = $2`,
        [rule.id, t.issueId, new Date(now).toISOString()],
      );
      firings.push({
        rule,
        subject: t.issueId,
        issueId: t.issueId,
        event: null,
        log: null,
        extra: {
          monitor: {
            id: t.monitorId,
            slug: t.slug,
            environment: t.environment,
            reason: t.reason,
            regressed: t.regressed,
          },
        },
      });
    }
  }
  if (firings.length === 0) return [];
  return writeFirings(em, firings, options);
}
