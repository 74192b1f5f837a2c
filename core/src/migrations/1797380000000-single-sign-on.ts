import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32, part 1: single sign-on with OpenID Connect per organization (decision 057).
 * - `sso_configs`: one provider per organization, with the discovery document as it was read
 *   when the owner saved it (so a sign-in does not depend on discovery answering).
 * - `sso_domains`: an email domain belongs to at most one organization, so "Sign in with SSO"
 *   finds exactly one from an address.
 * - `sso_identities`: the link of a user to an issuer's `sub`; after the first sign-in the
 *   user is found by this pair only, never by email.
 * - `sso_login_attempts`: one row per redirect to the provider, keyed by the hash of `state`,
 *   with the nonce and PKCE verifier; used once.
 */
export class SingleSignOn1797380000000 implements MigrationInterface {
  name = 'SingleSignOn1797380000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sso_configs (
      organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
      issuer text NOT NULL,
      metadata jsonb NOT NULL,
      client_id text NOT NULL,
      client_secret text NOT NULL,
      default_role text NOT NULL DEFAULT 'member' CHECK (default_role IN ('owner', 'admin', 'member')),
      require_sso boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE sso_domains (
      domain text PRIMARY KEY,
      organization_id uuid NOT NULL REFERENCES sso_configs(organization_id) ON DELETE CASCADE
    )`);
    await q.query('CREATE INDEX sso_domains_organization ON sso_domains (organization_id)');
    await q.query(`CREATE TABLE sso_identities (
      issuer text NOT NULL,
      subject text NOT NULL,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (issuer, subject)
    )`);
    await q.query('CREATE INDEX sso_identities_user ON sso_identities (user_id)');
    await q.query(`CREATE TABLE sso_login_attempts (
      state_hash text PRIMARY KEY,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      nonce text NOT NULL,
      code_verifier text NOT NULL,
      redirect_uri text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`);
    await q.query('CREATE INDEX sso_login_attempts_expires ON sso_login_attempts (expires_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sso_login_attempts');
    await q.query('DROP TABLE sso_identities');
    await q.query('DROP TABLE sso_domains');
    await q.query('DROP TABLE sso_configs');
  }
}
