import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type PlanId = 'free' | 'pro' | 'business';

@Entity('organizations')
export class Organization {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('text')
  slug: string;

  @Column('text')
  plan: PlanId;

  /** Members without two-factor must enrol before they see this organization's data (sessions only). */
  @Column('boolean', { name: 'require_two_factor', default: false })
  requireTwoFactor: boolean;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
