import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the GraphQL reads of issue 6 (Performance, Logs, User feedback), beyond the
 * ones the tables were created with (1795315200000):
 * - vitals by environment: the Performance page is almost always filtered to one environment
 *   (production), and a project's staging traffic would otherwise be read and thrown away;
 * - logs by environment, in the keyset order of the logs page (timestamp DESC, id DESC), so a
 *   filtered page stops after `first + 1` rows;
 * - feedback of one issue in the keyset order (received_at, id), which the existing
 *   (issue_id, received_at) index lacked the id tiebreak for.
 * Plain CREATE INDEX (not CONCURRENTLY): migrations run in a transaction, and PGlite has no
 * concurrent builds; these tables are small next to events.
 */
export class ReadApiIndexes1796050000000 implements MigrationInterface {
  name = 'ReadApiIndexes1796050000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX vitals_reports_project_env_received_idx ON vitals_reports (project_id, environment, received_at);
      CREATE INDEX logs_project_env_timestamp_idx ON logs (project_id, environment, timestamp DESC, id DESC);
      DROP INDEX feedback_issue_received_idx;
      CREATE INDEX feedback_issue_received_idx ON feedback (issue_id, received_at DESC, id DESC) WHERE issue_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX feedback_issue_received_idx;
      CREATE INDEX feedback_issue_received_idx ON feedback (issue_id, received_at DESC) WHERE issue_id IS NOT NULL;
      DROP INDEX logs_project_env_timestamp_idx;
      DROP INDEX vitals_reports_project_env_received_idx;
    `);
  }
}
