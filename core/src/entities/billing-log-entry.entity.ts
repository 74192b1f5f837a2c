import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** What one applied Stripe event, or the grace sweeper, did to an organization's plan. */
@Entity('billing_log')
export class BillingLogEntry {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'organization_id' })
  organizationId: string;

  /** Null when the grace sweeper made the change. */
  @Column('text', { name: 'stripe_event_id', nullable: true })
  stripeEventId: string | null;

  /** The Stripe event type, `grace_expired`, or `operator` / `admin` for a plan set by hand. */
  @Column('text')
  reason: string;

  @Column('text', { name: 'plan_before' })
  planBefore: string;

  @Column('text', { name: 'plan_after' })
  planAfter: string;

  @Column('text', { name: 'subscription_status', nullable: true })
  subscriptionStatus: string | null;

  /** The instance admin who set the plan by hand; null otherwise. */
  @Column('uuid', { name: 'changed_by', nullable: true })
  changedBy: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
