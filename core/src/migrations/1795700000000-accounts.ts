import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts and organizations (issue 5, docs/accounts.md): API tokens for integrations and
 * invitations by email. Both secrets are stored as SHA-256 only, like sessions.
 */
export class Accounts1795700000000 implements MigrationInterface {
  name = 'Accounts1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- Personal API tokens: they act as their user, limited to their scopes.
      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        scopes text[] NOT NULL CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['read', 'write', 'admin']::text[]),
        token_prefix text NOT NULL,
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      -- Every request with a token looks it up by hash.
      CREATE UNIQUE INDEX api_tokens_token_hash_key ON api_tokens (token_hash);
      -- "My tokens", newest first.
      CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created_at DESC);

      CREATE TABLE invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        -- Lower-cased, like users.email: only the account with this address may accept.
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
        token_hash text NOT NULL,
        invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_by uuid REFERENCES users (id) ON DELETE SET NULL,
        revoked_at timestamptz
      );
      -- Accepting looks the link's token up by hash.
      CREATE UNIQUE INDEX invitations_token_hash_key ON invitations (token_hash);
      -- An organization's invitations, newest first; and "is this address already invited".
      CREATE INDEX invitations_organization_idx ON invitations (organization_id, email);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE invitations; DROP TABLE api_tokens;`);
  }
}
