import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32 §3, email ownership (decision 066): the links that confirm an address after sign-up
 * (single use, stored hashed; the organization named at sign-up waits here until the address is
 * confirmed), and whether an invitation's link went out by email (only such a link proves the
 * address when the installation sends mail).
 */
export class EmailConfirmations1797440000000 implements MigrationInterface {
  name = 'EmailConfirmations1797440000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE email_confirmations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      organization_name text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz)`);
    await q.query('CREATE INDEX email_confirmations_user ON email_confirmations (user_id)');
    // Existing invitations stay "not known to be emailed": with SMTP on, an unverified account
    // confirms its address before joining through one of them.
    await q.query('ALTER TABLE invitations ADD COLUMN emailed_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE invitations DROP COLUMN emailed_at');
    await q.query('DROP TABLE email_confirmations');
  }
}
