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

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
