import type { BillingConfig } from '../config';
import type { PlanId } from '../entities';

/**
 * What Tracker needs to know about a Stripe subscription, as re-read from Stripe. The api
 * package builds it from the SDK's object, so core stays free of the SDK.
 */
export interface SubscriptionSnapshot {
  id: string;
  customerId: string;
  /** Stripe's status: active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired, paused. */
  status: string;
  /** The price of each subscription item. */
  priceIds: string[];
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** `metadata.organizationId`, which Checkout puts on every subscription it creates. */
  organizationId: string | null;
}

export type PaidPlanId = Exclude<PlanId, 'free'>;
export const PAID_PLAN_IDS: readonly PaidPlanId[] = ['pro', 'business'];

/**
 * Statuses of a subscription Stripe will still bill: a second Checkout would charge twice, so
 * changes go through the Billing Portal instead.
 */
export const LIVE_SUBSCRIPTION_STATUSES: readonly string[] = ['active', 'trialing', 'past_due', 'unpaid'];

export function isLiveSubscription(status: string | null | undefined): boolean {
  return !!status && LIVE_SUBSCRIPTION_STATUSES.includes(status);
}

/** Statuses that can grant a paid plan (past_due only during the grace period). */
export function isGrantingStatus(status: string | null | undefined): boolean {
  return status === 'active' || status === 'trialing' || status === 'past_due';
}

/** The plan a configured price buys, or null for a price this installation does not know. */
export function planForPrice(prices: BillingConfig['prices'], priceId: string): PaidPlanId | null {
  // Business first: if an operator configured one price for both, the larger plan wins.
  if (prices.business && priceId === prices.business) return 'business';
  if (prices.pro && priceId === prices.pro) return 'pro';
  return null;
}

/** The configured price of a paid plan, or null when that plan cannot be bought here. */
export function priceForPlan(prices: BillingConfig['prices'], plan: PaidPlanId): string | null {
  return prices[plan] ?? null;
}

/** The highest plan any item of the subscription buys, and that item's price. */
export function paidPlanOf(
  prices: BillingConfig['prices'],
  priceIds: readonly string[],
): { plan: PaidPlanId; priceId: string } | null {
  let best: { plan: PaidPlanId; priceId: string } | null = null;
  for (const priceId of priceIds) {
    const plan = planForPrice(prices, priceId);
    if (plan && (!best || PAID_PLAN_IDS.indexOf(plan) > PAID_PLAN_IDS.indexOf(best.plan))) best = { plan, priceId };
  }
  return best;
}

export interface PlanDecision {
  plan: PlanId;
  /** When the grace period (past_due) ends; null outside it. */
  graceEndsAt: Date | null;
}

/**
 * The plan an organization is on, given its subscription (pure):
 * - `active`, `trialing`: the plan of the subscription's price;
 * - `past_due`: that plan until `pastDueSince` + grace days, then free;
 * - `canceled`, `unpaid`, `incomplete` (never paid), `incomplete_expired`, `paused`, anything
 *   else: free.
 * A price that maps to no plan gives free: plans are granted by configuration only.
 */
export function planForSubscription(
  subscription: { status: string; priceIds: readonly string[]; pastDueSince: Date | null },
  billing: Pick<BillingConfig, 'prices' | 'graceDays'>,
  now: Date,
): PlanDecision {
  const paid = paidPlanOf(billing.prices, subscription.priceIds);
  switch (subscription.status) {
    case 'active':
    case 'trialing':
      return { plan: paid?.plan ?? 'free', graceEndsAt: null };
    case 'past_due': {
      const graceEndsAt = graceEnd(subscription.pastDueSince ?? now, billing.graceDays);
      return { plan: paid && now < graceEndsAt ? paid.plan : 'free', graceEndsAt };
    }
    default:
      return { plan: 'free', graceEndsAt: null };
  }
}

export function graceEnd(pastDueSince: Date, graceDays: number): Date {
  return new Date(pastDueSince.getTime() + graceDays * 86_400_000);
}
