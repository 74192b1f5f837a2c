import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each partitioned table and the ledger of the ids it holds (decision 067). */
const LEDGERS = [
  { ledger: 'stored_event_ids', table: 'events', id: 'event_id' },
  { ledger: 'stored_log_ids', table: 'logs', id: 'id' },
  { ledger: 'stored_vitals_ids', table: 'vitals_reports', id: 'id' },
] as const;

/**
 * The ledgers of stored ids (decision 067): one unpartitioned `(project_id, id)` primary key per
 * partitioned table, which the worker claims in the batch's transaction before it stores a row,
 * so an id is stored once per project whatever its receipt time or retention. `expires_on` is
 * the day the row's week partition is dropped (Monday of its receipt week + 7 days + its
 * retention), which the purge deletes by.
 *
 * Backfilled from the stored rows: the table is filled first and its keys built after, one sort
 * each instead of an index insert per row. Ids stored twice before (the gap this closes) keep
 * the later expiry: the ledger must outlive every copy.
 */
export class StoredIdLedgers1797450000000 implements MigrationInterface {
  name = 'StoredIdLedgers1797450000000';

  async up(q: QueryRunner): Promise<void> {
    for (const { ledger, table, id } of LEDGERS) {
      await q.query(`CREATE TABLE ${ledger} (project_id uuid NOT NULL, id uuid NOT NULL, expires_on date NOT NULL)`);
      await q.query(
        `INSERT INTO ${ledger} (project_id, id, expires_on)
         SELECT project_id, ${id},
                max((date_trunc('week', received_at AT TIME ZONE 'UTC'))::date + 7 + retention_days)
           FROM ${table} GROUP BY project_id, ${id}`,
      );
      await q.query(`ALTER TABLE ${ledger} ADD PRIMARY KEY (project_id, id)`);
      await q.query(`CREATE INDEX ${ledger}_expires_on ON ${ledger} (expires_on)`);
      await q.query(`ANALYZE ${ledger}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { ledger } of LEDGERS) await q.query(`DROP TABLE ${ledger}`);
  }
}
