import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An uploaded source map, keyed by the bundle file name it maps (see docs/sourcemaps.md). */
@Entity('source_maps')
export class SourceMap {
  @PrimaryColumn('uuid', { name: 'project_id' })
  projectId: string;

  @PrimaryColumn('text')
  release: string;

  @PrimaryColumn('text')
  filename: string;

  @Column('text', { select: false })
  map: string;

  @Column('integer', { name: 'size_bytes' })
  sizeBytes: number;

  @Column('timestamptz', { name: 'uploaded_at' })
  uploadedAt: Date;
}
