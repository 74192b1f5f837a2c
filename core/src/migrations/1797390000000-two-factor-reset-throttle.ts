import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32, parts 2 and 3: TOTP two-factor (the secret, the last step used so a code is accepted
 * once, hashed recovery codes, the short-lived challenge between password and code), password
 * reset tokens, email verification, the organization's "require 2FA", and the failure counters of
 * the sign-in throttle for installations without Redis (docs/accounts.md).
 */
export class TwoFactorResetThrottle1797390000000 implements MigrationInterface {
  name = 'TwoFactorResetThrottle1797390000000';

  async up(q: QueryRunner): Promise<void> {
    // Existing accounts stay unverified: no email ever confirmed their addresses.
    await q.query(`ALTER TABLE users
      ADD COLUMN email_verified_at timestamptz,
      ADD COLUMN totp_secret text,
      ADD COLUMN totp_pending_secret text,
      ADD COLUMN totp_enabled_at timestamptz,
      ADD COLUMN totp_last_step bigint`);
    await q.query('ALTER TABLE organizations ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false');
    await q.query(`CREATE TABLE recovery_codes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      used_at timestamptz)`);
    await q.query('CREATE INDEX recovery_codes_user ON recovery_codes (user_id)');
    await q.query(`CREATE TABLE sign_in_challenges (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz)`);
    await q.query('CREATE INDEX sign_in_challenges_user ON sign_in_challenges (user_id)');
    await q.query(`CREATE TABLE password_reset_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz,
      by_email boolean NOT NULL)`);
    await q.query('CREATE INDEX password_reset_tokens_user ON password_reset_tokens (user_id)');
    await q.query(`CREATE TABLE auth_throttle (
      key text PRIMARY KEY,
      failures integer NOT NULL,
      first_failure_at timestamptz NOT NULL,
      last_failure_at timestamptz NOT NULL)`);
    await q.query('CREATE INDEX auth_throttle_last ON auth_throttle (last_failure_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE auth_throttle');
    await q.query('DROP TABLE password_reset_tokens');
    await q.query('DROP TABLE sign_in_challenges');
    await q.query('DROP TABLE recovery_codes');
    await q.query('ALTER TABLE organizations DROP COLUMN require_two_factor');
    await q.query(`ALTER TABLE users DROP COLUMN email_verified_at, DROP COLUMN totp_secret,
      DROP COLUMN totp_pending_secret, DROP COLUMN totp_enabled_at, DROP COLUMN totp_last_step`);
  }
}
