import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type AlertKind = 'REGRESSED_ISSUE' | 'NEW_ISSUE';
export type AlertChannelType = 'WEBHOOK' | 'SLACK' | 'EMAIL' | 'TEAMS' | 'DISCORD';
export const ALERT_KINDS: readonly AlertKind[] = ['REGRESSED_ISSUE', 'NEW_ISSUE'];
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

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
