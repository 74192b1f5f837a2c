import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue ownership (issue 19): the member an issue is assigned to, or none. The user's row may
 * go (account deleted): the issue then falls back to unassigned rather than blocking the delete.
 * The partial index serves "assigned to me" and `assigned:<email>` in a project without
 * growing with the (many) unassigned issues; "unassigned" is served by the project's issue
 * indexes with a filter.
 */
export class IssueAssignee1796350000000 implements MigrationInterface {
  name = 'IssueAssignee1796350000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE issues ADD COLUMN assignee_id uuid REFERENCES users(id) ON DELETE SET NULL`);
    await q.query(
      `CREATE INDEX issues_project_assignee ON issues (project_id, assignee_id) WHERE assignee_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX issues_project_assignee`);
    await q.query(`ALTER TABLE issues DROP COLUMN assignee_id`);
  }
}
