import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dead letters (issue 15): jobs set aside after their last attempt, or at once when no retry can
 * help (an unreadable payload), kept in one table on both runtimes so that an operator can list,
 * replay and purge them (`npm run tracker -- dead-letter:…`) and `/metrics` can count them.
 * Before this, the database queue marked its rows `dead_at` and the Redis queue appended to a
 * `<prefix>:jobs:dead` stream; dead rows of the database queue move here now, and the Redis
 * stream is drained into the table by the queue when it connects.
 *
 * - `message_id` is the queue's own id (`database:<id>`, `redis:<prefix>:<stream id>`), unique,
 *   so that setting the same message aside twice (a crash between the insert and the ack)
 *   records it once.
 * - `project_id`, `kind` and `item_id` are read from the payload when it can be read; they are
 *   what an operator filters by, and no foreign key: a dead letter outlives its project.
 * - `queue_jobs.first_failed_at`: when the job first failed, carried into its dead letter.
 * - `tracker_try_json(text)`: the payload as jsonb, or null when it is not JSON (or holds what
 *   jsonb refuses; an escaped NUL is read as U+FFFD): the database queue moves a row to the dead letters in one statement and
 *   reads its project there.
 */
export class DeadLetters1796200000000 implements MigrationInterface {
  name = 'DeadLetters1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dead_letters (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        message_id text NOT NULL,
        topic text NOT NULL,
        project_id uuid,
        kind text,
        item_id text,
        payload text NOT NULL,
        error text NOT NULL,
        attempts integer NOT NULL,
        first_failed_at timestamptz NOT NULL,
        last_failed_at timestamptz NOT NULL
      );
      CREATE FUNCTION tracker_try_json(t text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
      BEGIN
        -- jsonb cannot hold an escaped NUL, and the payload is often set aside for holding one.
        RETURN replace(t, '\\u0000', '\\ufffd')::jsonb;
      EXCEPTION WHEN others THEN
        RETURN NULL;
      END $$;
      CREATE UNIQUE INDEX dead_letters_message_id_key ON dead_letters (message_id);
      CREATE INDEX dead_letters_last_failed_idx ON dead_letters (last_failed_at);
      ALTER TABLE queue_jobs ADD COLUMN first_failed_at timestamptz;
      INSERT INTO dead_letters (message_id, topic, payload, error, attempts, first_failed_at, last_failed_at)
        SELECT 'database:' || id, topic, payload, coalesce(last_error, 'unknown'), attempts, dead_at, dead_at
          FROM queue_jobs WHERE dead_at IS NOT NULL;
      DELETE FROM queue_jobs WHERE dead_at IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO queue_jobs (topic, payload, attempts, last_error, dead_at)
        SELECT topic, payload, attempts, error, last_failed_at FROM dead_letters;
      ALTER TABLE queue_jobs DROP COLUMN first_failed_at;
      DROP TABLE dead_letters;
      DROP FUNCTION tracker_try_json(text);
    `);
  }
}
