import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Role } from './membership.entity';

/** An invitation to join an organization, sent by email. Single use; the link's token is stored hashed. */
@Entity('invitations')
export class Invitation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'organization_id' })
  organizationId: string;

  /** Lower-cased; only the account with this address may accept. */
  @Column('text')
  email: string;

  @Column('text')
  role: Role;

  @Column('text', { name: 'token_hash', select: false })
  tokenHash: string;

  @Column('uuid', { name: 'invited_by', nullable: true })
  invitedBy: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'accepted_at', nullable: true })
  acceptedAt: Date | null;

  @Column('uuid', { name: 'accepted_by', nullable: true })
  acceptedBy: string | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  /** When the link went out by email; null when it was handed to the inviter (no SMTP, or sending failed). */
  @Column('timestamptz', { name: 'emailed_at', nullable: true })
  emailedAt: Date | null;
}
