import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31: a change of a user's email waits for the new address to confirm it (when SMTP is
 * set). One row per request; the link's token is stored as its SHA-256, like every other secret.
 * A newer request of the same user replaces the pending one (unique on `user_id`).
 */
export class EmailChanges1797360000000 implements MigrationInterface {
  name = 'EmailChanges1797360000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE email_changes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
        new_email text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE email_changes');
  }
}
