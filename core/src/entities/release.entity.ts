import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One version deployed to one environment; registering it again bumps `deployedAt`. */
@Entity('releases')
export class Release {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'project_id' })
  projectId: string;

  @Column('text')
  version: string;

  @Column('text')
  environment: string;

  @Column('timestamptz', { name: 'deployed_at' })
  deployedAt: Date;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
