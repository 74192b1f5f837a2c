import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 29 (decision 040): the evidence of an error beside its stack. `causes` holds the chain
 * below the thrown error with each one's frames, `breadcrumbs` what happened before it, `request`
 * the HTTP request it happened in. Nullable without a default: on the partitioned `events` table
 * (and each partition) adding them changes the catalogue only, no row is rewritten.
 */
export class EventEvidence1797290000000 implements MigrationInterface {
  name = 'EventEvidence1797290000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events ADD COLUMN causes jsonb, ADD COLUMN breadcrumbs jsonb, ADD COLUMN request jsonb');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events DROP COLUMN causes, DROP COLUMN breadcrumbs, DROP COLUMN request');
  }
}
