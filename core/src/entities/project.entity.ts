import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('projects')
export class Project {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'organization_id' })
  organizationId: string;

  @Column('text')
  name: string;

  /**
   * Unique in the instance and never reused (a sequence): the last path segment of the DSN,
   * where Sentry's SDKs expect a number (docs/sentry-compatibility.md).
   */
  @Column({ type: 'integer', default: () => "nextval('project_number_seq')", insert: false, update: false })
  number: number;

  /** Scrub the built-in sensitive key names and card numbers at the edge (docs/privacy.md). */
  @Column('boolean', { name: 'scrub_defaults', default: true })
  scrubDefaults: boolean;

  /** The project's own sensitive key names (case-insensitive substrings). */
  @Column('text', { name: 'sensitive_fields', array: true, default: () => "'{}'" })
  sensitiveFields: string[];

  @Column('boolean', { name: 'scrub_ip_addresses', default: false })
  scrubIpAddresses: boolean;

  /**
   * The project's trace viewer, e.g. `https://tempo.example.com/trace/{traceId}`: the issue page
   * links an event's trace id there (issue 34). Null: no link.
   */
  @Column('text', { name: 'trace_url_template', nullable: true })
  traceUrlTemplate: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
