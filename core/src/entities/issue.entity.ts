import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type IssueStatus = 'open' | 'resolved' | 'snoozed';
export type Level = 'fatal' | 'error' | 'warning' | 'info';

/**
 * A group of events sharing a grouping key. Counters are maintained by the worker in the same
 * transaction as the events they count, so they never drift from the events table.
 */
@Entity('issues')
export class Issue {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** Hex SHA-256 grouping key; unique per project. */
  @Column('text')
  fingerprint: string;

  @Column('text')
  title: string;

  @Column('text')
  type: string;

  @Column('text', { nullable: true })
  culprit: string | null;

  @Column('text')
  level: Level;

  @Column('text')
  status: IssueStatus;

  @Column('boolean', { name: 'is_regression' })
  isRegression: boolean;

  @Column('bigint', { name: 'event_count', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  eventCount: number;

  @Column('integer', { name: 'user_count' })
  userCount: number;

  @Column('timestamptz', { name: 'first_seen' })
  firstSeen: Date;

  @Column('timestamptz', { name: 'last_seen' })
  lastSeen: Date;

  @Column('timestamptz', { name: 'resolved_at', nullable: true })
  resolvedAt: Date | null;

  /** The project's newest release record when the issue was resolved (docs/releases-and-lifecycle.md). */
  @Column('uuid', { name: 'resolved_in_release_id', nullable: true })
  resolvedInReleaseId: string | null;

  @Column('timestamptz', { name: 'snoozed_until', nullable: true })
  snoozedUntil: Date | null;

  /** The member who owns the issue (issue 19); null when nobody does. */
  @Column('uuid', { name: 'assignee_id', nullable: true })
  assigneeId: string | null;

  /** No alert rule fires for this issue before this time (muteIssueAlerts). */
  @Column('timestamptz', { name: 'alerts_muted_until', nullable: true })
  alertsMutedUntil: Date | null;
}
