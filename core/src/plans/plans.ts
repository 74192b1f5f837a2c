import type { PlanId } from '../entities/organization.entity';

/** What a plan includes (docs/quotas.md). Stripe prices map onto these ids; limits live here only. */
export interface Plan {
  id: PlanId;
  name: string;
  /** Error events, messages and vitals reports per calendar month (UTC); feedback is free. */
  eventsPerMonth: number;
  /**
   * Structured log entries per calendar month (UTC). Logs are many and small, so they have a cap
   * of their own instead of eating the event quota (the plan table leaves this open; docs/quotas.md).
   */
  logsPerMonth: number;
  retentionDays: number;
  /** Release health: registering releases (upload token or Mark release) and its dashboards. */
  releaseHealth: boolean;
  /** Cron monitors per organization (issue 33); check-ins never count toward the event quota. */
  cronMonitors: number;
  /** Uptime monitors per organization (issue 33). */
  uptimeMonitors: number;
}

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: 'free',
    name: 'Free',
    eventsPerMonth: 5_000,
    logsPerMonth: 50_000,
    retentionDays: 30,
    releaseHealth: false,
    cronMonitors: 1,
    uptimeMonitors: 1,
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    eventsPerMonth: 100_000,
    logsPerMonth: 1_000_000,
    retentionDays: 90,
    releaseHealth: true,
    cronMonitors: 20,
    uptimeMonitors: 20,
  },
  business: {
    id: 'business',
    name: 'Business',
    eventsPerMonth: 1_000_000,
    logsPerMonth: 10_000_000,
    retentionDays: 365,
    releaseHealth: true,
    cronMonitors: 100,
    uptimeMonitors: 100,
  },
};

export const PLAN_IDS: readonly PlanId[] = ['free', 'pro', 'business'];

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export function planOf(id: PlanId): Plan {
  return PLANS[id];
}

/** The plans that include release health, named for a message: "Pro or Business". */
export function releaseHealthPlanNames(): string {
  const names = PLAN_IDS.map(planOf)
    .filter((p) => p.releaseHealth)
    .map((p) => p.name);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** The two monthly counters a plan limits: events (errors, messages, vitals) and log entries. */
export type UsageMeter = 'events' | 'logs';

export const USAGE_METERS: readonly UsageMeter[] = ['events', 'logs'];

/** The plan's monthly limit for one meter. */
export function planLimit(plan: Plan, meter: UsageMeter): number {
  return meter === 'logs' ? plan.logsPerMonth : plan.eventsPerMonth;
}
