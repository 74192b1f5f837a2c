import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const API_SCOPES = ['read', 'write', 'admin'] as const;
/** `read` runs queries; `write` also mutations; `admin` also the admin mutations (docs/accounts.md). */
export type ApiScope = (typeof API_SCOPES)[number];

/**
 * A personal API token for integrations (`eta_…`). It acts as its user, within its scopes, in
 * the organizations the user belongs to. Only the SHA-256 of the secret is stored.
 */
@Entity('api_tokens')
export class ApiToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  name: string;

  @Column('text', { array: true })
  scopes: ApiScope[];

  /** The first characters of the secret (`eta_Ab12Cd34`), enough to recognise it in a list. */
  @Column('text', { name: 'token_prefix' })
  tokenPrefix: string;

  @Column('text', { name: 'token_hash', select: false })
  tokenHash: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
