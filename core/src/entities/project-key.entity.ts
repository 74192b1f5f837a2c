import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A DSN key. It is public by design (it ships in browser bundles) and can only write events,
 * so it is stored as is and shown in the dashboard at any time.
 */
@Entity('project_keys')
export class ProjectKey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  /** `et_` followed by 32 hex characters. */
  @Column('text', { name: 'public_key' })
  publicKey: string;

  /** Events per second; null = no limit (docs/quotas.md). */
  @Column('integer', { name: 'rate_limit_per_second', nullable: true })
  rateLimitPerSecond: number | null;

  @Column('timestamptz', { name: 'disabled_at', nullable: true })
  disabledAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
