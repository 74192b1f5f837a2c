import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AlertKind } from './alert-rule.entity';

export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

/** One alert sent (or being sent) to one rule's channel: the delivery log. */
@Entity('alert_deliveries')
export class AlertDelivery {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'rule_id' })
  ruleId: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'issue_id', nullable: true })
  issueId: string | null;

  @Column('text')
  kind: AlertKind;

  @Column('text')
  status: DeliveryStatus;

  @Column('integer')
  attempts: number;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  /** The HTTP status of the last attempt, when there was one. */
  @Column('integer', { name: 'last_status', nullable: true })
  lastStatus: number | null;

  @Column('jsonb')
  payload: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'next_attempt_at' })
  nextAttemptAt: Date;

  @Column('timestamptz', { name: 'enqueued_at', nullable: true })
  enqueuedAt: Date | null;

  @Column('timestamptz', { name: 'delivered_at', nullable: true })
  deliveredAt: Date | null;

  /** A "Send test notification" (`testAlertRule`): sent once, never retried, no issue behind it. */
  @Column('boolean', { name: 'is_test', default: false })
  isTest: boolean;

  /** The start of the receiver's last answer (bounded, control characters removed), or null. */
  @Column('text', { name: 'last_response', nullable: true })
  lastResponse: string | null;

  /** When the first attempt started (by the dispatcher's clock): retries stop an hour after it. */
  @Column('timestamptz', { name: 'first_attempt_at', nullable: true })
  firstAttemptAt: Date | null;

  @Column('timestamptz', { name: 'last_attempt_at', nullable: true })
  lastAttemptAt: Date | null;
}
