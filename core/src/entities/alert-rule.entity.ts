import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type AlertKind =
  | 'REGRESSED_ISSUE'
  | 'NEW_ISSUE'
  | 'ISSUE_FREQUENCY'
  | 'USERS_AFFECTED'
  | 'NEW_RELEASE_ISSUE'
  | 'ERROR_SPIKE'
  | 'LOG_MATCH'
  | 'MONITOR_FAILED';
export type AlertChannelType = 'WEBHOOK' | 'SLACK' | 'EMAIL' | 'TEAMS' | 'DISCORD';
export const ALERT_KINDS: readonly AlertKind[] = [
  'REGRESSED_ISSUE',
  'NEW_ISSUE',
  'ISSUE_FREQUENCY',
  'USERS_AFFECTED',
  'NEW_RELEASE_ISSUE',
  'ERROR_SPIKE',
  'LOG_MATCH',
  'MONITOR_FAILED',
];

/** A rule's conditions (docs/alerts.md, "Conditions"); absent keys do not filter. */
export interface AlertFilter {
  environments?: string[];
  /** fatal > error > warning > info (logs: warn = warning, debug below info). */
  minLevel?: 'fatal' | 'error' | 'warning' | 'info';
  /** Every pair must equal the event's (or log's) tag. */
  tags?: Array<{ key: string; value: string }>;
  /** `*` any run of characters, `?` one; the whole release must match. */
  release?: string;
  /** true: only issues assigned to someone; false: only unassigned ones. */
  assigned?: boolean;
}
export const ALERT_CHANNEL_TYPES: readonly AlertChannelType[] = ['WEBHOOK', 'SLACK', 'EMAIL', 'TEAMS', 'DISCORD'];

/** "When <kind> happens in this project, tell <channel>." */
@Entity('alert_rules')
export class AlertRule {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  kind: AlertKind;

  @Column('text', { name: 'channel_type' })
  channelType: AlertChannelType;

  /** Webhook URL, or the Slack, Microsoft Teams or Discord incoming-webhook URL. */
  @Column('text', { nullable: true })
  url: string | null;

  @Column('text', { nullable: true })
  email: string | null;

  /** Webhook signing secret (`whsec_…`). */
  @Column('text', { nullable: true })
  secret: string | null;

  @Column('boolean')
  enabled: boolean;

  /** N of the counting kinds (ISSUE_FREQUENCY, USERS_AFFECTED: more than N; ERROR_SPIKE: N per minute). */
  @Column('integer', { nullable: true })
  threshold: number | null;

  /** M of the counting kinds: the window, in minutes. */
  @Column('integer', { name: 'window_minutes', nullable: true })
  windowMinutes: number | null;

  /** LOG_MATCH: case-insensitive text the log message must contain. */
  @Column('text', { nullable: true })
  query: string | null;

  @Column('jsonb', { default: {} })
  filter: AlertFilter;

  /** A rule fires at most once per issue (or per project for ERROR_SPIKE and LOG_MATCH) within this. */
  @Column('integer', { name: 'action_interval_minutes', default: 30 })
  actionIntervalMinutes: number;

  /** When set, firings are batched into one message every this many minutes. */
  @Column('integer', { name: 'digest_minutes', nullable: true })
  digestMinutes: number | null;

  /** No firing before this time (events are still counted). */
  @Column('timestamptz', { name: 'muted_until', nullable: true })
  mutedUntil: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
