import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A release (registered or not) an issue's events carried, per environment. */
@Entity('issue_releases')
export class IssueRelease {
  @PrimaryColumn('uuid', { name: 'issue_id' })
  issueId: string;

  @PrimaryColumn('text')
  environment: string;

  @PrimaryColumn('text')
  release: string;

  @Column('timestamptz', { name: 'first_seen' })
  firstSeen: Date;

  @Column('timestamptz', { name: 'last_seen' })
  lastSeen: Date;

  @Column('bigint', { name: 'event_count', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  eventCount: number;
}
