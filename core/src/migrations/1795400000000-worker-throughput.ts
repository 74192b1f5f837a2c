import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cheaper event rows for the worker (issue 2, docs/benchmarks.md). Neither change rewrites the
 * table or changes what a query returns.
 *
 * - `events.project_id` loses its own foreign key. It checked every inserted row against
 *   `projects`, and it is implied: an event's issue belongs to the same project (the worker
 *   takes both from the same upsert), `events.issue_id` still references `issues` with
 *   ON DELETE CASCADE, and `issues.project_id` references `projects` with ON DELETE CASCADE.
 *   Deleting a project therefore still deletes its events, through its issues; deleting an
 *   issue still deletes its events.
 * - The large columns (`stack`, `frames`, `context`) are compressed with lz4 instead of pglz
 *   when the server has lz4 (PostgreSQL ≥ 14 built with it, as the Debian and Docker images
 *   are; PGlite is not). pglz compressing ~4 KB per event was about a fifth of PostgreSQL's CPU
 *   per inserted event. Rows already stored keep pglz until rewritten; both read the same.
 */
export class WorkerThroughput1795400000000 implements MigrationInterface {
  name = 'WorkerThroughput1795400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events DROP CONSTRAINT IF EXISTS events_project_id_fkey');
    if (await hasLz4(q)) {
      await q.query(
        'ALTER TABLE events ALTER COLUMN stack SET COMPRESSION lz4, ALTER COLUMN frames SET COMPRESSION lz4, ALTER COLUMN context SET COMPRESSION lz4',
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    if (await hasLz4(q)) {
      await q.query(
        'ALTER TABLE events ALTER COLUMN stack SET COMPRESSION DEFAULT, ALTER COLUMN frames SET COMPRESSION DEFAULT, ALTER COLUMN context SET COMPRESSION DEFAULT',
      );
    }
    await q.query(
      'ALTER TABLE events ADD CONSTRAINT events_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE',
    );
  }
}

/** lz4 is a build option of PostgreSQL: the setting lists it only where it is compiled in. */
async function hasLz4(q: QueryRunner): Promise<boolean> {
  const rows: Array<{ lz4: boolean }> = await q.query(
    `SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
  );
  return rows[0]?.lz4 === true;
}
