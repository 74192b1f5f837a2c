import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('users')
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Stored lower-cased; uniqueness is on this column. */
  @Column('text')
  email: string;

  /** argon2id PHC string. */
  @Column('text', { name: 'password_hash' })
  passwordHash: string;

  /**
   * An instance admin (decision 051): the admin screen and its GraphQL fields. Not a tenant
   * role: it grants no organization's data.
   */
  @Column('boolean', { name: 'is_admin', default: false })
  isAdmin: boolean;
  /** When an email to this address confirmed it (a reset or confirmation link used); null: unverified. */
  @Column('timestamptz', { name: 'email_verified_at', nullable: true })
  emailVerifiedAt: Date | null;

  /** The TOTP secret (base32) once two-factor is on; null when it is off. */
  @Column('text', { name: 'totp_secret', nullable: true, select: true })
  totpSecret: string | null;

  /** A secret shown on the enrolment page and not yet confirmed with a code. */
  @Column('text', { name: 'totp_pending_secret', nullable: true })
  totpPendingSecret: string | null;

  @Column('timestamptz', { name: 'totp_enabled_at', nullable: true })
  totpEnabledAt: Date | null;

  /** The time step of the last accepted code: a code is accepted once (bigint comes back as a string). */
  @Column('bigint', { name: 'totp_last_step', nullable: true })
  totpLastStep: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
