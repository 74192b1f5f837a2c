import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue activity and comments (issue 19).
 *
 * - `issue_comments`: plain-text comments by a member. The author may go (account deleted): the
 *   comment stays, authorless, and nobody can edit it any more.
 * - `issue_activity`: the issue's timeline, one row per thing that happened (kind, who, when, the
 *   sentence shown and a JSON object of details). Written by the worker (first seen, regressed),
 *   the API's transitions, merge, assignment, comments and the alert dispatcher, through
 *   `recordIssueActivity` (core/src/activity). A COMMENTED row points at its comment and goes with
 *   it; its sentence is read from the comment, so an edit shows. Rows go with their issue; a
 *   merge moves the source's rows to the target. Purged after the plan's retention window like
 *   events (core/src/retention), by `created_at`.
 * - `project_id` is denormalized from the issue: the purge joins projects → organizations by it,
 *   and tenant checks need it without joining issues.
 */
export class IssueActivity1796400000000 implements MigrationInterface {
  name = 'IssueActivity1796400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE issue_comments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        issue_id uuid NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        author_id uuid REFERENCES users(id) ON DELETE SET NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX issue_comments_issue_idx ON issue_comments (issue_id);
      CREATE INDEX issue_comments_created_idx ON issue_comments (created_at);
      CREATE TABLE issue_activity (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        issue_id uuid NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        kind text NOT NULL,
        actor_id uuid REFERENCES users(id) ON DELETE SET NULL,
        comment_id uuid REFERENCES issue_comments(id) ON DELETE CASCADE,
        message text NOT NULL,
        data jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY
      );
      CREATE INDEX issue_activity_issue_idx ON issue_activity (issue_id, created_at DESC, seq DESC);
      CREATE INDEX issue_activity_created_idx ON issue_activity (created_at);
      CREATE INDEX issue_activity_comment_idx ON issue_activity (comment_id) WHERE comment_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE issue_activity; DROP TABLE issue_comments;`);
  }
}
