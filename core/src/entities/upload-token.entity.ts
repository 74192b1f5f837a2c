import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A secret that uploads source maps and registers releases for one project. Stored hashed. */
@Entity('upload_tokens')
export class UploadToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  name: string;

  /** The first characters of the token (`etu_Ab12…`), enough to recognise it in a list. */
  @Column('text', { name: 'token_prefix' })
  tokenPrefix: string;

  @Column('text', { name: 'token_hash', select: false })
  tokenHash: string;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
