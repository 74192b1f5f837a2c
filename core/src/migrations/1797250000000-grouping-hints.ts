import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which issue a minified error goes to when its release has no source maps (decision 042): the
 * first event of an error, minified or de-minified, writes the key its issue is grouped on under
 * a key that both kinds can compute (type, message, bundle file). Small: one row per distinct
 * error of a bundle, removed with the project.
 */
export class GroupingHints1797250000000 implements MigrationInterface {
  name = 'GroupingHints1797250000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE grouping_hints (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        hint_key text NOT NULL,
        grouping_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, hint_key)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE grouping_hints');
  }
}
