import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What a user wrote about an error. `issueId` is null until the event it names is stored
 * (feedback may arrive first), and stays null for feedback that names no event.
 */
@Entity('feedback')
export class Feedback {
  @PrimaryColumn('uuid', { name: 'project_id' })
  projectId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  message: string;

  @Column('text', { nullable: true })
  email: string | null;

  /** The name the writer gave (Sentry's feedback widget asks for it beside the email). */
  @Column('text', { nullable: true })
  name: string | null;

  /** The page it was written on (the widget sends the browser's location). */
  @Column('text', { nullable: true })
  url: string | null;

  @Column('uuid', { name: 'event_id', nullable: true })
  eventId: string | null;

  @Column('uuid', { name: 'issue_id', nullable: true })
  issueId: string | null;

  @Column('timestamptz', { name: 'received_at' })
  receivedAt: Date;
}
