import type { DataSource } from 'typeorm';
import type { BillingConfig } from '../config';
import { queryRows } from '../db/query-rows';
import type { PlanId } from '../entities';
import { AppError } from '../errors';
import { requireOrganizationAccess, type AccessNeed, type Caller } from '../access';
import { graceEnd } from './subscription-plan';
import { recordAudit } from '../audit/record-audit';

export interface BillingOrganization {
  id: string;
  name: string;
  slug: string;
  plan: PlanId;
}

/**
 * The organization when the caller belongs to it with a role and credential `need` admits.
 * Anyone outside it gets NOT_FOUND, as if it did not exist; a member without the role FORBIDDEN.
 */
export async function requireOrganizationRole(
  ds: DataSource,
  caller: Caller,
  organizationId: string,
  need: AccessNeed,
  action: string,
): Promise<BillingOrganization> {
  const { organization } = await requireOrganizationAccess(ds, caller, organizationId, need, action);
  return { id: organization.id, name: organization.name, slug: organization.slug, plan: organization.plan };
}

export interface BillingState {
  plan: PlanId;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  stripePriceId: string | null;
  subscriptionStatus: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  pastDueSince: Date | null;
  /** End of the grace period while past due: after it the organization is on free. */
  graceEndsAt: Date | null;
}

export async function getBillingState(
  ds: DataSource,
  organizationId: string,
  graceDays: number,
): Promise<BillingState> {
  const rows = await queryRows<{
    plan: PlanId;
    stripe_customer_id: string | null;
    stripe_subscription_id: string | null;
    stripe_price_id: string | null;
    subscription_status: string | null;
    current_period_end: Date | null;
    cancel_at_period_end: boolean | null;
    past_due_since: Date | null;
  }>(
    ds,
    `SELECT o.plan, b.stripe_customer_id, b.stripe_subscription_id, b.stripe_price_id, b.subscription_status,
            b.current_period_end, b.cancel_at_period_end, b.past_due_since
     FROM organizations o LEFT JOIN billing_accounts b ON b.organization_id = o.id
     WHERE o.id = $1`,
    [organizationId],
  );
  const r = rows[0];
  if (!r) throw new AppError('NOT_FOUND', 'Organization not found');
  return {
    plan: r.plan,
    stripeCustomerId: r.stripe_customer_id,
    stripeSubscriptionId: r.stripe_subscription_id,
    stripePriceId: r.stripe_price_id,
    subscriptionStatus: r.subscription_status,
    currentPeriodEnd: r.current_period_end,
    cancelAtPeriodEnd: r.cancel_at_period_end ?? false,
    pastDueSince: r.past_due_since,
    graceEndsAt: r.past_due_since ? graceEnd(r.past_due_since, graceDays) : null,
  };
}

/**
 * The organization's Stripe customer id, creating the customer (through `create`) the first
 * time. The organization row is locked meanwhile, so two concurrent Checkouts of one
 * organization create one customer; `create` should also send an idempotency key.
 */
export async function ensureStripeCustomer(
  ds: DataSource,
  organizationId: string,
  create: () => Promise<string>,
): Promise<string> {
  return ds.transaction(async (em) => {
    const org = await queryRows<{ id: string }>(em, 'SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [
      organizationId,
    ]);
    if (org.length === 0) throw new AppError('NOT_FOUND', 'Organization not found');
    const existing = await queryRows<{ stripe_customer_id: string }>(
      em,
      'SELECT stripe_customer_id FROM billing_accounts WHERE organization_id = $1',
      [organizationId],
    );
    if (existing[0]) return existing[0].stripe_customer_id;
    const customerId = await create();
    await em.query('INSERT INTO billing_accounts (organization_id, stripe_customer_id) VALUES ($1, $2)', [
      organizationId,
      customerId,
    ]);
    return customerId;
  });
}

/**
 * Moves organizations whose subscription has been past due for longer than the grace period
 * to free, and logs it. Returns their ids. Safe to run from several processes at once: each
 * organization is re-checked under its row lock, the same lock the webhook takes.
 */
export async function expireBillingGrace(
  ds: DataSource,
  billing: Pick<BillingConfig, 'graceDays'>,
  now: Date = new Date(),
): Promise<string[]> {
  const cutoff = new Date(now.getTime() - billing.graceDays * 86_400_000);
  const due = await queryRows<{ organization_id: string }>(
    ds,
    `SELECT b.organization_id FROM billing_accounts b JOIN organizations o ON o.id = b.organization_id
     WHERE b.past_due_since IS NOT NULL AND b.past_due_since <= $1 AND b.subscription_status = 'past_due' AND o.plan <> 'free'`,
    [cutoff],
  );
  const expired: string[] = [];
  for (const { organization_id: id } of due) {
    const changed = await ds.transaction(async (em) => {
      const org = await queryRows<{ plan: PlanId }>(em, 'SELECT plan FROM organizations WHERE id = $1 FOR UPDATE', [
        id,
      ]);
      const acct = await queryRows<{ past_due_since: Date | null; subscription_status: string | null }>(
        em,
        'SELECT past_due_since, subscription_status FROM billing_accounts WHERE organization_id = $1',
        [id],
      );
      const a = acct[0];
      if (!org[0] || org[0].plan === 'free' || !a || a.subscription_status !== 'past_due') return false;
      if (!a.past_due_since || a.past_due_since > cutoff) return false;
      await em.query(`UPDATE organizations SET plan = 'free' WHERE id = $1`, [id]);
      await recordAudit(em, {
        organizationId: id,
        actor: { type: 'system', name: 'billing' },
        action: 'organization.plan_changed',
        target: { type: 'organization', id },
        changes: { before: { plan: org[0].plan }, after: { plan: 'free', reason: 'payment grace period ended' } },
      });
      await em.query(
        `INSERT INTO billing_log (organization_id, stripe_event_id, reason, plan_before, plan_after, subscription_status)
         VALUES ($1, NULL, 'grace_expired', $2, 'free', 'past_due')`,
        [id, org[0].plan],
      );
      return true;
    });
    if (changed) expired.push(id);
  }
  return expired;
}
