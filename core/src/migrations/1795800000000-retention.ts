import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention (issue 5): the purge looks for events received before a cutoff. A BRIN index on
 * `received_at` answers that for an append-mostly table at a few pages of index, and costs the
 * worker's inserts next to nothing (a B-tree on a 2 KB-row table would add an index write per
 * event to the hottest path).
 */
export class Retention1795800000000 implements MigrationInterface {
  name = 'Retention1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX events_received_at_brin ON events USING brin (received_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX events_received_at_brin');
  }
}
