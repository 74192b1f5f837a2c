import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sessions in release health (decision 045), stored as counters, never as rows per session:
 * - `release_sessions`: per project, release and environment, sessions started and ended by
 *   final state;
 * - `release_session_users`: one row per distinct user (`did`, hashed) of a release in an
 *   environment, with whether any of their sessions crashed: crash-free users;
 * - `session_states`: the state of single sessions while they can still be updated (Sentry
 *   allows five days), so each counts once by its final state; purged after that.
 * No foreign key to `releases`: sessions arrive before or without a deploy record, as events do.
 */
export class ReleaseSessions1797320000000 implements MigrationInterface {
  name = 'ReleaseSessions1797320000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE release_sessions (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        release text NOT NULL,
        environment text NOT NULL,
        started bigint NOT NULL DEFAULT 0,
        exited bigint NOT NULL DEFAULT 0,
        errored bigint NOT NULL DEFAULT 0,
        crashed bigint NOT NULL DEFAULT 0,
        abnormal bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, release, environment)
      )`);
    await q.query(`
      CREATE TABLE release_session_users (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        release text NOT NULL,
        environment text NOT NULL,
        user_hash text NOT NULL,
        crashed boolean NOT NULL DEFAULT false,
        PRIMARY KEY (project_id, release, environment, user_hash)
      )`);
    await q.query(`
      CREATE TABLE session_states (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        sid text NOT NULL,
        release text NOT NULL,
        environment text NOT NULL,
        status text NOT NULL DEFAULT 'ok',
        errored boolean NOT NULL DEFAULT false,
        user_hash text,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, sid)
      )`);
    await q.query('CREATE INDEX session_states_updated_at_idx ON session_states (updated_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE session_states');
    await q.query('DROP TABLE release_session_users');
    await q.query('DROP TABLE release_sessions');
  }
}
