import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The events the worker dropped for a discarded issue, by id: their quota units are given back
 * once per event, not once per delivery of the batch that held them (a batch delivered again
 * after its ack failed dropped them again and gave the units back twice). Purged with the plan's
 * retention like the other per-row tables.
 */
export class DiscardedEventLedger1797000000000 implements MigrationInterface {
  name = 'DiscardedEventLedger1797000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE discarded_events (
      id bigserial PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      event_id uuid NOT NULL,
      received_at timestamptz NOT NULL,
      UNIQUE (project_id, event_id)
    )`);
    await q.query(`CREATE INDEX discarded_events_received_at ON discarded_events (received_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE discarded_events`);
  }
}
