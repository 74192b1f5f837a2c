import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30 (decision 043): what sentry-cli tells about a release beyond its deploys.
 * `release_details` is per version (a release row is per version and environment): when it was
 * created through the API, finalized (`dateReleased`) and its URL. `release_commits` holds the
 * commits `releases set-commits` sent, in the order sent (newest first), with the paths each
 * changed: suspect commits match them against an issue's frames.
 */
export class ReleaseCommits1797300000000 implements MigrationInterface {
  name = 'ReleaseCommits1797300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE release_details (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        version text NOT NULL,
        url text,
        date_released timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, version)
      );
      CREATE TABLE release_commits (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        version text NOT NULL,
        position integer NOT NULL,
        commit_id text NOT NULL,
        repository text NOT NULL,
        author_name text,
        author_email text,
        message text,
        committed_at timestamptz,
        files text[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (project_id, version, position)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE release_commits; DROP TABLE release_details');
  }
}
