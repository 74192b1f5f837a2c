import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * sentry-cli's upload path (decision 044): chunks kept until their bundle is assembled or for
 * 24 hours (per organization, as sentry-cli addresses them), the bundles assembled (so a poll of
 * the same checksum answers `ok` once the chunks are gone), and source maps keyed by debug ID.
 */
export class ArtifactBundles1797310000000 implements MigrationInterface {
  name = 'ArtifactBundles1797310000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE artifact_chunks (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        checksum text NOT NULL,
        data bytea NOT NULL,
        size_bytes integer NOT NULL,
        uploaded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, checksum)
      )`);
    await q.query('CREATE INDEX artifact_chunks_uploaded_at ON artifact_chunks (uploaded_at)');
    await q.query(`
      CREATE TABLE artifact_bundles (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        checksum text NOT NULL,
        release text,
        dist text,
        file_count integer NOT NULL,
        assembled_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, checksum)
      )`);
    await q.query(`
      CREATE TABLE debug_id_source_maps (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        debug_id uuid NOT NULL,
        filename text NOT NULL,
        map text NOT NULL,
        size_bytes integer NOT NULL,
        uploaded_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, debug_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE debug_id_source_maps; DROP TABLE artifact_bundles; DROP TABLE artifact_chunks');
  }
}
