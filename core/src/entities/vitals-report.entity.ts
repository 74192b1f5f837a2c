import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The Core Web Vitals of one page view: milliseconds, except CLS (unitless); null = not measured. */
@Entity('vitals_reports')
export class VitalsReport {
  @PrimaryColumn('uuid', { name: 'project_id' })
  projectId: string;

  @PrimaryColumn('uuid')
  id: string;

  /** Without query or hash; null until the page load's own piece of a Sentry trace arrives (decision 046). */
  @Column('text', { nullable: true })
  url: string | null;

  @Column('double precision', { nullable: true })
  lcp: number | null;

  @Column('double precision', { nullable: true })
  inp: number | null;

  @Column('double precision', { nullable: true })
  cls: number | null;

  @Column('double precision', { nullable: true })
  fcp: number | null;

  @Column('double precision', { nullable: true })
  ttfb: number | null;

  @Column('text')
  environment: string;

  @Column('text', { nullable: true })
  release: string | null;

  @Column('jsonb')
  tags: Record<string, string>;

  @Column('timestamptz', { name: 'received_at' })
  receivedAt: Date;

  /** The organization's plan retention when received: which partitions hold it (decision 029). */
  @Column('smallint', { name: 'retention_days' })
  retentionDays: number;
}
