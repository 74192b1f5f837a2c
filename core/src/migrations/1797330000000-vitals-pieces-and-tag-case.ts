import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Decision 046.
 * - `vitals_reports.url` may be null: a piece of a page load sent by Sentry's tracing (LCP, CLS or
 *   INP as spans of their own) is stored before the page load's own piece names the page, and
 *   filled when it arrives; reads skip reports without a page.
 * - Tag values match case-insensitively (`browser.name:chrome` finds "Chrome"): the search compares
 *   `lower(value)`, served by an index on it beside the exact one, and the statistics of decision
 *   034 (most common values of project, key and value together) are kept for the lowered value
 *   too, so a common tag is still estimated as common and the page walks the last-seen index.
 */
export class VitalsPiecesAndTagCase1797330000000 implements MigrationInterface {
  name = 'VitalsPiecesAndTagCase1797330000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE vitals_reports ALTER COLUMN url DROP NOT NULL');
    await q.query(
      'CREATE INDEX issue_tag_values_project_key_lower_idx ON issue_tag_values (project_id, key, lower(value), issue_id)',
    );
    await q.query(
      'CREATE STATISTICS issue_tag_values_project_key_lower_value (mcv) ON project_id, key, lower(value) FROM issue_tag_values',
    );
    await q.query('ANALYZE issue_tag_values');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP STATISTICS issue_tag_values_project_key_lower_value');
    await q.query('DROP INDEX issue_tag_values_project_key_lower_idx');
    await q.query('DELETE FROM vitals_reports WHERE url IS NULL');
    await q.query('ALTER TABLE vitals_reports ALTER COLUMN url SET NOT NULL');
  }
}
