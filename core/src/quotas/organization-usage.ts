import type { PlanId } from '../entities';
import { planLimit, planOf, USAGE_METERS, type UsageMeter } from '../plans';
import { periodEnd, quotaPeriod } from './period';
import type { UsageReader } from './usage-reader';

/** One meter of one organization in the current period. */
export interface MeterUsage {
  used: number;
  limit: number;
  /** What is left before ingest answers 429 (never below 0). */
  remaining: number;
}

export interface OrganizationUsage {
  /** The quota period, `YYYY-MM` (UTC month). */
  period: string;
  /** When the counts reset: the first instant of the next UTC month. */
  periodEnd: Date;
  events: MeterUsage;
  logs: MeterUsage;
}

export function meterUsage(used: number, limit: number): MeterUsage {
  return { used, limit, remaining: Math.max(0, limit - used) };
}

/**
 * The organization's usage against its plan for the period containing `now`. The caller has
 * already checked that the organization is the caller's (this reads by id, for anyone).
 */
export async function readOrganizationUsage(
  reader: UsageReader,
  organization: { id: string; plan: PlanId },
  now: Date = new Date(),
): Promise<OrganizationUsage> {
  const period = quotaPeriod(now);
  const counts = await reader.read(organization.id, period);
  const plan = planOf(organization.plan);
  const meters = {} as Record<UsageMeter, MeterUsage>;
  for (const m of USAGE_METERS) meters[m] = meterUsage(counts[m], planLimit(plan, m));
  return { period, periodEnd: periodEnd(now), ...meters };
}
