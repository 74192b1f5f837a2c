import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type Role = 'owner' | 'admin' | 'member';

@Entity('memberships')
export class Membership {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  role: Role;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
