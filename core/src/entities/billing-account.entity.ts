import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * An organization's Stripe customer and its subscription as last re-read from Stripe
 * (docs/billing.md). The plan itself lives on `organizations.plan`.
 */
@Entity('billing_accounts')
export class BillingAccount {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @Column('text', { name: 'stripe_customer_id' })
  stripeCustomerId: string;

  @Column('text', { name: 'stripe_subscription_id', nullable: true })
  stripeSubscriptionId: string | null;

  @Column('text', { name: 'stripe_price_id', nullable: true })
  stripePriceId: string | null;

  /** Stripe's subscription status (`active`, `trialing`, `past_due`, `canceled`, …). */
  @Column('text', { name: 'subscription_status', nullable: true })
  subscriptionStatus: string | null;

  @Column('timestamptz', { name: 'current_period_end', nullable: true })
  currentPeriodEnd: Date | null;

  @Column('boolean', { name: 'cancel_at_period_end', default: false })
  cancelAtPeriodEnd: boolean;

  /** When the subscription was first seen past_due; the grace period runs from here. */
  @Column('timestamptz', { name: 'past_due_since', nullable: true })
  pastDueSince: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
