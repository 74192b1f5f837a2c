import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The GraphQL issue queries (issue 6): filters, sort orders, merge and release health.
 * docs/issue-queries.md shows each index with the query plan it serves.
 *
 * - `issue_environments`: the environments an issue's events came from, maintained by the worker
 *   like `issue_releases` (one upsert per batch). Filtering the issues page by environment
 *   probes its primary key instead of scanning events; its `first_seen` per environment is also
 *   what "issues introduced by a release" compares with. It carries project_id (always the
 *   issue's) so the page's count with only an environment filter needs no join. Backfilled from
 *   the events.
 * - `issue_aliases`: after a merge, the source issue's grouping key names the target, so later
 *   events of that key join the target (the worker's issue upsert consults it).
 * - `issue_regressions`: which release (and environment) reopened an issue, for release health;
 *   written by the worker only when a regression happens.
 * - Indexes for the page's sort orders without a status filter (the initial migration's index
 *   leads with status), for health per release, and for issues by release.
 */
export class IssueQueries1796150000000 implements MigrationInterface {
  name = 'IssueQueries1796150000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE issue_environments (
        issue_id uuid NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
        project_id uuid NOT NULL,
        environment text NOT NULL,
        first_seen timestamptz NOT NULL,
        last_seen timestamptz NOT NULL,
        event_count bigint NOT NULL,
        PRIMARY KEY (issue_id, environment)
      );
      INSERT INTO issue_environments (issue_id, project_id, environment, first_seen, last_seen, event_count)
        SELECT issue_id, project_id, environment, min(timestamp), max(timestamp), count(*) FROM events
         GROUP BY issue_id, project_id, environment;
      -- totalCount of the page filtered by environment alone: an index-only count, no join.
      CREATE INDEX issue_environments_project_env_idx ON issue_environments (project_id, environment);

      CREATE TABLE issue_aliases (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        fingerprint text NOT NULL,
        issue_id uuid NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, fingerprint)
      );
      -- Merging into an issue that was itself a merge source re-points its aliases.
      CREATE INDEX issue_aliases_issue_idx ON issue_aliases (issue_id);

      CREATE TABLE issue_regressions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        issue_id uuid NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
        project_id uuid NOT NULL,
        release text,
        environment text NOT NULL,
        regressed_at timestamptz NOT NULL
      );
      CREATE INDEX issue_regressions_release_idx ON issue_regressions (project_id, release, environment);
      CREATE INDEX issue_regressions_issue_idx ON issue_regressions (issue_id);

      -- The issues page without a status filter, newest activity first (and with an
      -- environment filter: walked in order, each row probing issue_environments' key).
      CREATE INDEX issues_project_last_seen_idx ON issues (project_id, last_seen DESC, id DESC);
      CREATE INDEX issues_project_first_seen_idx ON issues (project_id, first_seen DESC, id DESC);

      -- Release health: the issues that carried a release (introduced), and a release's events
      -- (crash-free users, events per hour) without scanning the project's other events.
      CREATE INDEX issue_releases_release_idx ON issue_releases (release, environment);
      CREATE INDEX events_project_release_idx ON events (project_id, release, environment, timestamp)
        WHERE release IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX events_project_release_idx; DROP INDEX issue_releases_release_idx;
      DROP INDEX issues_project_first_seen_idx; DROP INDEX issues_project_last_seen_idx;
      DROP TABLE issue_regressions; DROP TABLE issue_aliases; DROP TABLE issue_environments;
    `);
  }
}
