import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { LogLevel } from '../events/log.schema';

/** One structured log record from an SDK's `logger`; unique on (project, id). */
@Entity('logs')
export class LogEntry {
  @PrimaryColumn('uuid', { name: 'project_id' })
  projectId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  level: LogLevel;

  @Column('text')
  message: string;

  @Column('jsonb', { nullable: true })
  context: Record<string, unknown> | null;

  @Column('text')
  environment: string;

  @Column('text', { nullable: true })
  release: string | null;

  @Column('jsonb')
  tags: Record<string, string>;

  @Column('timestamptz')
  timestamp: Date;

  @Column('timestamptz', { name: 'received_at' })
  receivedAt: Date;

  /** The organization's plan retention when received: which partitions hold it (decision 029). */
  @Column('smallint', { name: 'retention_days' })
  retentionDays: number;
}
