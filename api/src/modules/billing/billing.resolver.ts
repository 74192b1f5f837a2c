import {
  AppError,
  ensureStripeCustomer,
  getBillingState,
  isLiveSubscription,
  PAID_PLAN_IDS,
  priceForPlan,
  requireOrganizationRole,
  type BillingConfig,
  type PaidPlanId,
} from '@tracker/core';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { stripeFor } from '../../billing/stripe';
import { requireCaller, requirePrincipal, type Context } from '../../context';
import { BillingSessionType, BillingType, toBillingType } from './billing.type';

function requireConfigured(billing: BillingConfig): void {
  if (!billing.configured) {
    throw new AppError(
      'BILLING_NOT_CONFIGURED',
      'Billing is not configured on this installation (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and a price are needed)',
    );
  }
}

/** Where Stripe sends the browser back to: the dashboard's Billing page of the organization. */
function billingPageUrl(publicUrl: string, organizationId: string, extra = ''): string {
  return `${publicUrl}/billing?organizationId=${encodeURIComponent(organizationId)}${extra}`;
}

@Resolver()
export class BillingResolver {
  @Query(() => BillingType, { description: 'Any member. Answers with configured: false when Stripe is not set up.' })
  async billing(@Arg('organizationId', () => ID) organizationId: string, @Ctx() ctx: Context): Promise<BillingType> {
    const org = await requireOrganizationRole(ctx.ds, requireCaller(ctx), organizationId, 'read', 'see billing');
    return toBillingType(ctx.config.billing, await getBillingState(ctx.ds, org.id, ctx.config.billing.graceDays));
  }

  @Mutation(() => BillingSessionType, {
    description: 'Owners. A Stripe Checkout page that subscribes the organization to a paid plan (pro or business).',
  })
  async createCheckoutSession(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('plan', () => String) plan: string,
    @Ctx() ctx: Context,
  ): Promise<BillingSessionType> {
    const { user } = requirePrincipal(ctx);
    const billing = ctx.config.billing;
    requireConfigured(billing);
    const org = await requireOrganizationRole(
      ctx.ds,
      requireCaller(ctx),
      organizationId,
      { roles: ['owner'], scope: 'admin' },
      'change the plan',
    );
    if (!(PAID_PLAN_IDS as readonly string[]).includes(plan)) {
      throw new AppError('BAD_USER_INPUT', `plan: must be one of ${PAID_PLAN_IDS.join(', ')}`);
    }
    const price = priceForPlan(billing.prices, plan as PaidPlanId);
    if (!price)
      throw new AppError('BAD_USER_INPUT', `plan: ${plan} cannot be bought on this installation (no Stripe price)`);
    const state = await getBillingState(ctx.ds, org.id, billing.graceDays);
    if (isLiveSubscription(state.subscriptionStatus)) {
      throw new AppError(
        'CONFLICT',
        'This organization already has a subscription: change or cancel it in the billing portal',
      );
    }
    const stripe = stripeFor(billing);
    const customer = await ensureStripeCustomer(ctx.ds, org.id, async () => {
      const created = await stripe.customers.create(
        { name: org.name, email: user.email, metadata: { organizationId: org.id } },
        // A retry after a lost answer (or a rolled-back insert) gets the same customer back.
        { idempotencyKey: `tracker-customer-${org.id}` },
      );
      return created.id;
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: org.id,
      line_items: [{ price, quantity: 1 }],
      metadata: { organizationId: org.id },
      subscription_data: { metadata: { organizationId: org.id } },
      success_url: billingPageUrl(ctx.config.publicUrl, org.id, '&checkout=success'),
      cancel_url: billingPageUrl(ctx.config.publicUrl, org.id, '&checkout=canceled'),
    });
    if (!session.url) throw new Error('Stripe returned a Checkout session without a url');
    return { url: session.url };
  }

  @Mutation(() => BillingSessionType, {
    description: "Owners. Stripe's billing portal: change plan, payment method, invoices, cancel.",
  })
  async createBillingPortalSession(
    @Arg('organizationId', () => ID) organizationId: string,
    @Ctx() ctx: Context,
  ): Promise<BillingSessionType> {
    requirePrincipal(ctx);
    const billing = ctx.config.billing;
    requireConfigured(billing);
    const org = await requireOrganizationRole(
      ctx.ds,
      requireCaller(ctx),
      organizationId,
      { roles: ['owner'], scope: 'admin' },
      'manage billing',
    );
    const state = await getBillingState(ctx.ds, org.id, billing.graceDays);
    if (!state.stripeCustomerId) {
      throw new AppError(
        'CONFLICT',
        'This organization has no billing account yet: subscribe with createCheckoutSession first',
      );
    }
    const session = await stripeFor(billing).billingPortal.sessions.create({
      customer: state.stripeCustomerId,
      return_url: billingPageUrl(ctx.config.publicUrl, org.id),
    });
    return { url: session.url };
  }
}
