import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { StackFrame } from '../stacktrace/stack-frame';
import type { Breadcrumb, EventRequest, StoredCause } from '../events/evidence';
import type { Level } from './issue.entity';

/** One accepted error or message; stored once per (project, eventId) so redelivery is harmless. */
@Entity('events')
export class Event {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('uuid', { name: 'issue_id' })
  issueId: string;

  @Column('uuid', { name: 'event_id' })
  eventId: string;

  @Column('timestamptz')
  timestamp: Date;

  @Column('timestamptz', { name: 'received_at' })
  receivedAt: Date;

  /** The organization's plan retention when received: which partitions hold it (decision 029). */
  @Column('smallint', { name: 'retention_days' })
  retentionDays: number;

  @Column('text')
  level: Level;

  @Column('text')
  type: string;

  @Column('text')
  message: string;

  /**
   * The message an error was logged with, beside its exception's own (`logging.exception(…)`,
   * Sentry's `logentry`); null when the event has none or it says the same.
   */
  @Column('text', { name: 'log_message', nullable: true })
  logMessage: string | null;

  @Column('text')
  environment: string;

  @Column('text', { nullable: true })
  release: string | null;

  @Column('text', { nullable: true })
  url: string | null;

  @Column('boolean', { nullable: true })
  handled: boolean | null;

  @Column('text', { nullable: true })
  stack: string | null;

  @Column('jsonb')
  frames: StackFrame[];

  @Column('jsonb')
  tags: Record<string, string>;

  @Column('jsonb', { nullable: true })
  context: Record<string, unknown> | null;

  @Column('jsonb', { nullable: true })
  user: Record<string, unknown> | null;

  @Column('jsonb', { nullable: true })
  sdk: { name: string; version: string } | null;

  @Column('jsonb', { nullable: true })
  fingerprint: string[] | null;

  /** The errors that caused this one, nearest first, each with its own frames (decision 040). */
  @Column('jsonb', { nullable: true })
  causes: StoredCause[] | null;

  /** What happened before the error, oldest first (the newest 100). */
  @Column('jsonb', { nullable: true })
  breadcrumbs: Breadcrumb[] | null;

  /** The HTTP request it happened in (server SDKs), scrubbed at ingest. */
  @Column('jsonb', { nullable: true })
  request: EventRequest | null;
}
