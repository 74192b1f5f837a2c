import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The issue search language and saved searches (issue 19). docs/issue-queries.md shows the plans.
 *
 * - `issue_tag_values`: every distinct tag `key = value` an issue's events carried, plus the
 *   users they named under the keys `user.id` and `user.email` (lower-cased). Written by the
 *   worker in the batch's transaction (insert-if-absent, one statement per batch), moved by
 *   merge, gone with the issue. `browser.name:Chrome` and `user.email:…` probe it instead of
 *   the issue's events (which have no index on their tags: a GIN index would cost every event
 *   insert). The primary key serves the probe of one issue while the page walks issues in
 *   order; the project index serves a rare value (a few issues out of many) and the check that
 *   a key exists at all. Backfilled from the events.
 * - `saved_searches`: a person's named queries in a project, shown as tabs. Theirs only:
 *   the user's row going takes them along, and so does the project's.
 */
export class IssueSearch1796420000000 implements MigrationInterface {
  name = 'IssueSearch1796420000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE issue_tag_values (
        issue_id uuid NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
        project_id uuid NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        PRIMARY KEY (issue_id, key, value)
      );
      INSERT INTO issue_tag_values (issue_id, project_id, key, value)
        SELECT DISTINCT e.issue_id, e.project_id, t.key, t.value FROM events e, jsonb_each_text(e.tags) t
        UNION
        SELECT issue_id, project_id, 'user.id', "user" ->> 'id' FROM events
         WHERE jsonb_typeof("user") = 'object' AND coalesce("user" ->> 'id', '') <> ''
        UNION
        SELECT issue_id, project_id, 'user.email', lower(trim("user" ->> 'email')) FROM events
         WHERE jsonb_typeof("user") = 'object' AND coalesce(trim("user" ->> 'email'), '') <> '';
      CREATE INDEX issue_tag_values_project_key_idx ON issue_tag_values (project_id, key, value, issue_id);

      CREATE TABLE saved_searches (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        query text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- One person's tabs in one project, in the order they were saved; one name once.
      CREATE UNIQUE INDEX saved_searches_user_project_name_key ON saved_searches (user_id, project_id, name);
      CREATE INDEX saved_searches_user_project_idx ON saved_searches (user_id, project_id, created_at, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE saved_searches; DROP TABLE issue_tag_values;');
  }
}
