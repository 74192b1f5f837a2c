import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30: the log message of an error logged with its exception (Python's
 * `logging.exception("charging %s failed", order)`, Sentry's `logentry` beside `exception`),
 * kept beside the exception's own message. Nullable without a default: on the partitioned
 * `events` table adding it changes the catalogue only, no row is rewritten.
 */
export class EventLogMessage1797340000000 implements MigrationInterface {
  name = 'EventLogMessage1797340000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events ADD COLUMN log_message text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events DROP COLUMN log_message');
  }
}
