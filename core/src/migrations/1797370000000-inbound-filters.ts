import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31: inbound filters. A project's filter settings are one jsonb document (read with its
 * DSN key by the edge, `findKeyInfo`), and what each filter dropped is counted per UTC day: the
 * edge sums drops in memory and queues one small job per (project, filter) now and then, which
 * the worker adds here, so a crawler flood costs an upsert every few seconds, not a row per event.
 */
export class InboundFilters1797370000000 implements MigrationInterface {
  name = 'InboundFilters1797370000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE project_inbound_filters (
      project_id uuid PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      settings jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE inbound_filter_counts (
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      filter text NOT NULL,
      day date NOT NULL,
      count bigint NOT NULL,
      PRIMARY KEY (project_id, filter, day)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE inbound_filter_counts');
    await q.query('DROP TABLE project_inbound_filters');
  }
}
