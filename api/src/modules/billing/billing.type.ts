import type { BillingConfig, BillingState } from '@tracker/core';
import { PAID_PLAN_IDS, priceForPlan } from '@tracker/core';
import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: "An organization's plan and its Stripe subscription (docs/billing.md)." })
export class BillingType {
  @Field(() => Boolean, {
    description:
      'False when this installation has no Stripe configuration: plans then change only through the operator command.',
  })
  configured: boolean;

  @Field(() => String, { description: 'Plan id in force: free, pro or business.' })
  plan: string;

  @Field(() => [String], { description: 'Paid plans that can be bought here (those with a configured Stripe price).' })
  availablePlans: string[];

  @Field(() => String, {
    nullable: true,
    description: "Stripe's subscription status (active, trialing, past_due, canceled, …); null without a subscription.",
  })
  status: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601: end of the current billing period.' })
  currentPeriodEnd: string | null;

  @Field(() => Boolean, {
    description: 'The subscription ends at the end of the period (cancelled in the billing portal).',
  })
  cancelAtPeriodEnd: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 8601: when a payment first failed, while the subscription is past due.',
  })
  pastDueSince: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 8601: while past due, when the organization falls back to free.',
  })
  graceEndsAt: string | null;

  @Field(() => Boolean, { description: 'A Stripe customer exists, so the billing portal can be opened.' })
  hasBillingAccount: boolean;
}

@ObjectType({ description: 'A Stripe-hosted page to send the browser to.' })
export class BillingSessionType {
  @Field(() => String)
  url: string;
}

export function toBillingType(billing: BillingConfig, state: BillingState): BillingType {
  return {
    configured: billing.configured,
    plan: state.plan,
    availablePlans: billing.configured ? PAID_PLAN_IDS.filter((p) => priceForPlan(billing.prices, p)) : [],
    status: state.subscriptionStatus,
    currentPeriodEnd: state.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    pastDueSince: state.pastDueSince?.toISOString() ?? null,
    graceEndsAt: state.graceEndsAt?.toISOString() ?? null,
    hasBillingAccount: state.stripeCustomerId !== null,
  };
}
