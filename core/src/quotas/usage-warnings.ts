import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { PlanId } from '../entities';
import { planLimit, planOf, USAGE_METERS, type UsageMeter } from '../plans';
import { quotaPeriod } from './period';
import type { UsageReader } from './usage-reader';

/** Percentages of a monthly limit at which owners and admins are warned, once each per period. */
export const USAGE_WARNING_THRESHOLDS = [80, 100] as const;
export type UsageWarningThreshold = (typeof USAGE_WARNING_THRESHOLDS)[number];

/** The thresholds `used` has reached (in integers: no rounding surprises at exactly 80 %). */
export function crossedThresholds(used: number, limit: number): UsageWarningThreshold[] {
  if (limit <= 0) return [];
  return USAGE_WARNING_THRESHOLDS.filter((t) => used * 100 >= t * limit);
}

/** A warning this call queued (the row it inserted). */
export interface QueuedUsageWarning {
  id: string;
  organizationId: string;
  meter: UsageMeter;
  threshold: UsageWarningThreshold;
  used: number;
  quota: number;
  /** `pending` (to send) or `superseded` (a higher threshold was crossed in the same step). */
  status: 'pending' | 'superseded';
}

const PLAN_CHUNK = 1_000;

/**
 * Finds the organizations whose usage in the current period has crossed 80 % or 100 % of a
 * limit and queues one warning per (organization, meter, period, threshold). Queuing *is* the
 * insert: the row is the email's outbox entry, and the unique key means that any number of
 * worker processes running this at once insert it once, so it is sent once. When a single step
 * crosses both thresholds only the 100 % email is sent; the 80 % row is recorded as superseded.
 *
 * Only organizations with a counter in the period are read (`UsageReader.listActive`).
 */
export async function queueUsageWarnings(
  ds: DataSource,
  reader: UsageReader,
  now: Date = new Date(),
): Promise<QueuedUsageWarning[]> {
  const period = quotaPeriod(now);
  const active = await reader.listActive(period);
  if (active.size === 0) return [];
  const ids = [...active.keys()];
  const plans = new Map<string, PlanId>();
  for (let i = 0; i < ids.length; i += PLAN_CHUNK) {
    const rows = await queryRows<{ id: string; plan: PlanId }>(
      ds,
      'SELECT id, plan FROM organizations WHERE id = ANY($1::uuid[])',
      [ids.slice(i, i + PLAN_CHUNK)],
    );
    for (const r of rows) plans.set(r.id, r.plan);
  }
  const rows: Array<Omit<QueuedUsageWarning, 'id'>> = [];
  for (const [organizationId, counts] of active) {
    const planId = plans.get(organizationId);
    if (!planId) continue; // deleted since it was counted
    const plan = planOf(planId);
    for (const meter of USAGE_METERS) {
      const quota = planLimit(plan, meter);
      const crossed = crossedThresholds(counts[meter], quota);
      const highest = crossed[crossed.length - 1];
      for (const threshold of crossed) {
        rows.push({
          organizationId,
          meter,
          threshold,
          used: counts[meter],
          quota,
          status: threshold === highest ? 'pending' : 'superseded',
        });
      }
    }
  }
  if (rows.length === 0) return [];
  const inserted = await queryRows<{
    id: string;
    organization_id: string;
    meter: UsageMeter;
    threshold: number;
    used: string | number;
    quota: string | number;
    status: 'pending' | 'superseded';
  }>(
    ds,
    `INSERT INTO usage_warnings (organization_id, meter, period, threshold, used, quota, status)
     SELECT t.organization_id, t.meter, $1, t.threshold, t.used, t.quota, t.status
       FROM unnest($2::uuid[], $3::text[], $4::int[], $5::bigint[], $6::bigint[], $7::text[])
         AS t(organization_id, meter, threshold, used, quota, status)
       JOIN organizations o ON o.id = t.organization_id
     ON CONFLICT (organization_id, meter, period, threshold) DO NOTHING
     RETURNING id, organization_id, meter, threshold, used, quota, status`,
    [
      period,
      rows.map((r) => r.organizationId),
      rows.map((r) => r.meter),
      rows.map((r) => r.threshold),
      rows.map((r) => r.used),
      rows.map((r) => r.quota),
      rows.map((r) => r.status),
    ],
  );
  return inserted.map((r) => ({
    id: r.id,
    organizationId: r.organization_id,
    meter: r.meter,
    threshold: r.threshold as UsageWarningThreshold,
    used: Number(r.used),
    quota: Number(r.quota),
    status: r.status,
  }));
}

/** A warning claimed for one send attempt, with what the email needs. */
export interface DueUsageWarning {
  id: string;
  organization: { id: string; name: string; slug: string };
  meter: UsageMeter;
  period: string;
  threshold: UsageWarningThreshold;
  used: number;
  quota: number;
  /** This attempt's number (1 for the first). */
  attempts: number;
  /** Owners and admins of the organization, at the time of sending. */
  recipients: string[];
}

/**
 * Claims up to `limit` due warnings for one attempt each: `pending` (or `sending` whose lease ran
 * out: its sender died) → `sending`, attempts + 1, leased for `leaseMs`. `SKIP LOCKED`: two
 * processes claiming at once never get the same row.
 */
export async function claimDueUsageWarnings(
  ds: DataSource,
  options: { limit: number; leaseMs: number },
): Promise<DueUsageWarning[]> {
  const rows = await queryRows<{
    id: string;
    organization_id: string;
    name: string;
    slug: string;
    meter: UsageMeter;
    period: string;
    threshold: number;
    used: string | number;
    quota: string | number;
    attempts: number;
  }>(
    ds,
    `WITH due AS (
       SELECT id FROM usage_warnings
        WHERE status IN ('pending', 'sending') AND next_attempt_at <= now()
        ORDER BY next_attempt_at LIMIT $1
        FOR UPDATE SKIP LOCKED)
     UPDATE usage_warnings w SET status = 'sending', attempts = w.attempts + 1,
       next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
       FROM due, organizations o
      WHERE w.id = due.id AND o.id = w.organization_id
     RETURNING w.id, w.organization_id, o.name, o.slug, w.meter, w.period, w.threshold, w.used, w.quota, w.attempts`,
    [options.limit, options.leaseMs],
  );
  if (rows.length === 0) return [];
  const people = await queryRows<{ organization_id: string; email: string }>(
    ds,
    `SELECT m.organization_id, u.email FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = ANY($1::uuid[]) AND m.role IN ('owner', 'admin')
      ORDER BY m.role DESC, u.email`,
    [[...new Set(rows.map((r) => r.organization_id))]],
  );
  return rows.map((r) => ({
    id: r.id,
    organization: { id: r.organization_id, name: r.name, slug: r.slug },
    meter: r.meter,
    period: r.period,
    threshold: r.threshold as UsageWarningThreshold,
    used: Number(r.used),
    quota: Number(r.quota),
    attempts: r.attempts,
    recipients: people.filter((p) => p.organization_id === r.organization_id).map((p) => p.email),
  }));
}

/** The email went out to `recipients`. */
export async function markUsageWarningSent(ds: DataSource, id: string, recipients: string[]): Promise<void> {
  await ds.query(
    `UPDATE usage_warnings SET status = 'sent', sent_at = now(), recipients = $2, last_error = NULL
      WHERE id = $1 AND status = 'sending'`,
    [id, recipients],
  );
}

/**
 * The attempt failed: due again at `retryAt`, or `failed` for good when `retryAt` is null.
 * `unsent` instead of `failed` when there was nothing to try (no SMTP configured, nobody to
 * send to): the warning was due and is recorded as such, and is not retried.
 */
export async function markUsageWarningFailed(
  ds: DataSource,
  id: string,
  error: string,
  retryAt: Date | null,
  final: 'failed' | 'unsent' = 'failed',
): Promise<void> {
  if (retryAt) {
    await ds.query(
      `UPDATE usage_warnings SET status = 'pending', last_error = $2, next_attempt_at = $3
        WHERE id = $1 AND status = 'sending'`,
      [id, error.slice(0, 1000), retryAt.toISOString()],
    );
  } else {
    await ds.query(`UPDATE usage_warnings SET status = $3, last_error = $2 WHERE id = $1 AND status = 'sending'`, [
      id,
      error.slice(0, 1000),
      final,
    ]);
  }
}
