import type { DataSource, EntityManager } from 'typeorm';
import type { BillingConfig } from '../config';
import { queryRows } from '../db/query-rows';
import type { PlanId } from '../entities';
import { isUuid } from '../projects/find-project';
import { recordAudit } from '../audit/record-audit';
import {
  isGrantingStatus,
  paidPlanOf,
  PAID_PLAN_IDS,
  planForSubscription,
  type SubscriptionSnapshot,
} from './subscription-plan';

/** The Stripe events that move an organization between plans (enable these on the endpoint). */
export const HANDLED_STRIPE_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
] as const;

export function isHandledStripeEvent(type: string): boolean {
  return (HANDLED_STRIPE_EVENTS as readonly string[]).includes(type);
}

/**
 * What a verified webhook event points at. Only references: the subscription's state is always
 * re-read from Stripe, because events arrive late, twice and out of order.
 */
export interface StripeEventRefs {
  id: string;
  type: string;
  /** Checkout's `client_reference_id`, or `metadata.organizationId` of the object. */
  organizationId: string | null;
  customerId: string | null;
  subscriptionId: string | null;
}

export interface ApplyStripeEventDeps {
  billing: Pick<BillingConfig, 'prices' | 'graceDays'>;
  /** Re-reads a subscription from Stripe; null when Stripe does not know it. */
  retrieveSubscription(id: string): Promise<SubscriptionSnapshot | null>;
  now?: () => Date;
}

export interface ApplyStripeEventResult {
  /** False when this event id was already applied (a redelivery): nothing was done. */
  applied: boolean;
  organizationId: string | null;
  planBefore?: PlanId;
  plan?: PlanId;
  /** Why nothing changed, when that is the case. */
  note?: string;
}

interface AccountRow {
  stripe_customer_id: string;
  stripe_subscription_id: string | null;
  past_due_since: Date | null;
}

/**
 * Applies one Stripe event in ONE transaction:
 *  1. insert its id into `stripe_events` (ON CONFLICT DO NOTHING): a second delivery, even a
 *     concurrent one, waits on the unique key and then finds the row, and does nothing;
 *  2. lock the organization row, so events for one organization apply one at a time;
 *  3. re-read the subscription from Stripe under that lock: whatever order events arrive in,
 *     the last one to commit writes Stripe's current state;
 *  4. set the plan, the billing account and a billing_log row.
 * If Stripe cannot be reached the transaction rolls back (the event id too) and the caller
 * answers 5xx, so Stripe delivers the event again later.
 */
export async function applyStripeEvent(
  ds: DataSource,
  event: StripeEventRefs,
  deps: ApplyStripeEventDeps,
): Promise<ApplyStripeEventResult> {
  const now = deps.now?.() ?? new Date();
  return ds.transaction(async (em) => {
    const inserted = await queryRows<{ id: string }>(
      em,
      'INSERT INTO stripe_events (id, type, received_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id',
      [event.id, event.type, now],
    );
    if (inserted.length === 0) return { applied: false, organizationId: null, note: 'duplicate event' };

    let organizationId = await organizationFor(em, event.customerId, event.organizationId);
    if (!organizationId && event.subscriptionId) {
      // e.g. a subscription created in Stripe's dashboard: its metadata or customer may say.
      const found = await deps.retrieveSubscription(event.subscriptionId);
      if (found) organizationId = await organizationFor(em, found.customerId, found.organizationId);
    }
    if (!organizationId) return { applied: true, organizationId: null, note: 'no organization for this event' };

    const locked = await queryRows<{ plan: PlanId }>(em, 'SELECT plan FROM organizations WHERE id = $1 FOR UPDATE', [
      organizationId,
    ]);
    if (locked.length === 0) return { applied: true, organizationId: null, note: 'organization no longer exists' };
    const planBefore = locked[0].plan;
    await em.query('UPDATE stripe_events SET organization_id = $1 WHERE id = $2', [organizationId, event.id]);

    const [account] = await queryRows<AccountRow>(
      em,
      'SELECT stripe_customer_id, stripe_subscription_id, past_due_since FROM billing_accounts WHERE organization_id = $1',
      [organizationId],
    );
    const tracked = account?.stripe_subscription_id ?? null;
    const candidateIds = [...new Set([event.subscriptionId, tracked].filter((id): id is string => !!id))];
    if (candidateIds.length === 0) {
      await log(em, organizationId, event, planBefore, planBefore, null);
      return { applied: true, organizationId, planBefore, plan: planBefore, note: 'no subscription named' };
    }

    // Re-read every subscription in question, now, under the lock (never trust the event body).
    // (A snapshot read before the lock is not reused: another event may have committed since.)
    const snapshots: SubscriptionSnapshot[] = [];
    for (const id of candidateIds) {
      const s = await deps.retrieveSubscription(id);
      if (s) snapshots.push(s);
    }
    const chosen = chooseSubscription(snapshots, tracked, deps.billing.prices);

    let plan: PlanId = 'free';
    if (chosen) {
      const keepSince = account?.stripe_subscription_id === chosen.id ? account.past_due_since : null;
      const pastDueSince = chosen.status === 'past_due' ? (keepSince ?? now) : null;
      plan = planForSubscription({ ...chosen, pastDueSince }, deps.billing, now).plan;
      const customerId = chosen.customerId || account?.stripe_customer_id || event.customerId;
      await em.query(
        `INSERT INTO billing_accounts (organization_id, stripe_customer_id, stripe_subscription_id, stripe_price_id,
           subscription_status, current_period_end, cancel_at_period_end, past_due_since, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (organization_id) DO UPDATE SET
           stripe_customer_id = excluded.stripe_customer_id,
           stripe_subscription_id = excluded.stripe_subscription_id,
           stripe_price_id = excluded.stripe_price_id,
           subscription_status = excluded.subscription_status,
           current_period_end = excluded.current_period_end,
           cancel_at_period_end = excluded.cancel_at_period_end,
           past_due_since = excluded.past_due_since,
           updated_at = excluded.updated_at`,
        [
          organizationId,
          customerId,
          chosen.id,
          paidPlanOf(deps.billing.prices, chosen.priceIds)?.priceId ?? chosen.priceIds[0] ?? null,
          chosen.status,
          chosen.currentPeriodEnd,
          chosen.cancelAtPeriodEnd,
          pastDueSince,
          now,
        ],
      );
    } else if (account) {
      // Stripe no longer knows the subscription(s): nothing is being paid for.
      await em.query(
        `UPDATE billing_accounts SET stripe_subscription_id = NULL, stripe_price_id = NULL, subscription_status = NULL,
           current_period_end = NULL, cancel_at_period_end = false, past_due_since = NULL, updated_at = $2
         WHERE organization_id = $1`,
        [organizationId, now],
      );
    }
    if (plan !== planBefore) {
      await em.query('UPDATE organizations SET plan = $2 WHERE id = $1', [organizationId, plan]);
      await recordAudit(em, {
        organizationId,
        actor: { type: 'system', name: 'stripe' },
        action: 'organization.plan_changed',
        target: { type: 'organization', id: organizationId },
        changes: {
          before: { plan: planBefore },
          after: { plan, stripeEvent: event.id, subscriptionStatus: chosen?.status ?? null },
        },
      });
    }
    await log(em, organizationId, event, planBefore, plan, chosen?.status ?? null);
    return { applied: true, organizationId, planBefore, plan };
  });
}

/**
 * Which subscription decides the plan when an organization has more than one (say a new one
 * started while the old one's `deleted` event is still on its way): one that can grant a plan
 * beats one that cannot, then the larger plan, then the one already tracked.
 */
export function chooseSubscription(
  snapshots: readonly SubscriptionSnapshot[],
  tracked: string | null,
  prices: BillingConfig['prices'],
): SubscriptionSnapshot | null {
  const rank = (s: SubscriptionSnapshot) => {
    const paid = paidPlanOf(prices, s.priceIds);
    return [
      isGrantingStatus(s.status) ? 1 : 0,
      paid ? PAID_PLAN_IDS.indexOf(paid.plan) + 1 : 0,
      s.id === tracked ? 1 : 0,
    ];
  };
  let best: SubscriptionSnapshot | null = null;
  let bestRank: number[] = [];
  for (const s of snapshots) {
    const r = rank(s);
    if (!best || compare(r, bestRank) > 0) {
      best = s;
      bestRank = r;
    }
  }
  return best;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

async function organizationFor(
  em: EntityManager,
  customerId: string | null,
  organizationId: string | null,
): Promise<string | null> {
  // The customer is ours (created per organization at first Checkout): it wins over metadata.
  if (customerId) {
    const rows = await queryRows<{ organization_id: string }>(
      em,
      'SELECT organization_id FROM billing_accounts WHERE stripe_customer_id = $1',
      [customerId],
    );
    if (rows[0]) return rows[0].organization_id;
  }
  if (organizationId && isUuid(organizationId)) {
    const rows = await queryRows<{ id: string }>(em, 'SELECT id FROM organizations WHERE id = $1', [organizationId]);
    if (rows[0]) return rows[0].id;
  }
  return null;
}

async function log(
  em: EntityManager,
  organizationId: string,
  event: StripeEventRefs,
  planBefore: PlanId,
  planAfter: PlanId,
  status: string | null,
): Promise<void> {
  await em.query(
    `INSERT INTO billing_log (organization_id, stripe_event_id, reason, plan_before, plan_after, subscription_status)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [organizationId, event.id, event.type, planBefore, planAfter, status],
  );
}
