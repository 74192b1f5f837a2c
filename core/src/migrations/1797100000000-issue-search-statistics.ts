import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Statistics of tag values that occur together (issue 21, docs/issue-queries.md "At 10,000,000
 * events"). PostgreSQL estimates `project_id = … AND key = … AND value = …` on
 * `issue_tag_values` as if the three were independent: `browser.name:Chrome` on a quarter of a
 * project's issues was estimated at a tenth of that, so the planner hashed the project's every
 * issue and sorted them instead of walking `issues_project_last_seen_idx` and probing each
 * issue's tag until the page is full (the page's statement 20 ms at 10,000,000 events, 3 ms with
 * this). A most-common-values list over the three columns gives the frequent combinations (the
 * ones where the plan matters) their real counts; rare ones stay estimated as rare, as they are.
 */
export class IssueSearchStatistics1797100000000 implements MigrationInterface {
  name = 'IssueSearchStatistics1797100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE STATISTICS issue_tag_values_project_key_value (mcv) ON project_id, key, value FROM issue_tag_values',
    );
    // Filled by the next ANALYZE; done now so an upgraded instance does not wait for autovacuum.
    await q.query('ANALYZE issue_tag_values');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP STATISTICS issue_tag_values_project_key_value');
  }
}
