import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A Stripe webhook event whose effect has been applied (the idempotency record). */
@Entity('stripe_events')
export class StripeEvent {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  type: string;

  @Column('uuid', { name: 'organization_id', nullable: true })
  organizationId: string | null;

  @Column('timestamptz', { name: 'received_at' })
  receivedAt: Date;
}
