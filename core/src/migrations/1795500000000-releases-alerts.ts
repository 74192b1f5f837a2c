import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Releases, source maps, upload tokens, the rest of the issue lifecycle and alerting (issue 4).
 * Every table leads with (or reaches through) project_id, so a project's data is deleted by the
 * cascade from projects and never found by another tenant's key.
 */
export class ReleasesAlerts1795500000000 implements MigrationInterface {
  name = 'ReleasesAlerts1795500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- One row per (version, environment) deployment. Registering again bumps deployed_at:
      -- lifecycle decisions order releases by deploy time, never by comparing versions.
      CREATE TABLE releases (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        version text NOT NULL,
        environment text NOT NULL,
        deployed_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX releases_project_version_env_key ON releases (project_id, version, environment);
      -- "the project's newest release record" (resolve) and the Releases page, newest first.
      CREATE INDEX releases_project_deployed_idx ON releases (project_id, deployed_at DESC);

      ALTER TABLE issues
        ADD COLUMN resolved_at timestamptz,
        ADD COLUMN resolved_in_release_id uuid REFERENCES releases (id) ON DELETE SET NULL,
        ADD COLUMN snoozed_until timestamptz;

      -- The releases an issue appeared in, per environment: any release string an event carried,
      -- registered or not (an unregistered one is still a fact about the issue).
      CREATE TABLE issue_releases (
        issue_id uuid NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
        environment text NOT NULL,
        release text NOT NULL,
        first_seen timestamptz NOT NULL,
        last_seen timestamptz NOT NULL,
        event_count bigint NOT NULL,
        PRIMARY KEY (issue_id, environment, release)
      );

      -- Secret upload tokens (etu_…): only the hash is stored; the prefix identifies it in lists.
      CREATE TABLE upload_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        name text NOT NULL,
        token_prefix text NOT NULL,
        token_hash text NOT NULL,
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE UNIQUE INDEX upload_tokens_hash_key ON upload_tokens (token_hash);
      CREATE INDEX upload_tokens_project_idx ON upload_tokens (project_id, created_at DESC);

      -- Uploaded source maps, one per (project, release, file name); a new upload replaces it.
      CREATE TABLE source_maps (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        release text NOT NULL,
        filename text NOT NULL,
        map text NOT NULL,
        size_bytes integer NOT NULL,
        uploaded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, release, filename)
      );

      CREATE TABLE alert_rules (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('REGRESSED_ISSUE', 'NEW_ISSUE')),
        channel_type text NOT NULL CHECK (channel_type IN ('WEBHOOK', 'SLACK', 'EMAIL')),
        url text,
        email text,
        -- Signs webhook bodies (HMAC-SHA256); the receiver needs it in clear, so it is not hashed.
        secret text,
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((channel_type = 'EMAIL') = (email IS NOT NULL)),
        CHECK ((channel_type <> 'EMAIL') = (url IS NOT NULL))
      );
      -- The worker's question on every transition: which enabled rules of this kind?
      CREATE INDEX alert_rules_project_kind_idx ON alert_rules (project_id, kind) WHERE enabled;

      -- An outbox: written in the transaction that made the transition, delivered after commit.
      CREATE TABLE alert_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        rule_id uuid NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        issue_id uuid REFERENCES issues (id) ON DELETE CASCADE,
        kind text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        last_status integer,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        -- pending: due at this time (now, or after the back-off of a failed attempt);
        -- sending: the lease of the dispatcher that claimed it (a crash is noticed when it ends).
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        -- Last time a queue message was written for it; the sweeper re-queues only stale ones.
        enqueued_at timestamptz,
        delivered_at timestamptz
      );
      CREATE INDEX alert_deliveries_due_idx ON alert_deliveries (next_attempt_at) WHERE status IN ('pending', 'sending');
      CREATE INDEX alert_deliveries_rule_idx ON alert_deliveries (rule_id, created_at DESC);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE alert_deliveries; DROP TABLE alert_rules; DROP TABLE source_maps; DROP TABLE upload_tokens;
      DROP TABLE issue_releases;
      ALTER TABLE issues DROP COLUMN resolved_at, DROP COLUMN resolved_in_release_id, DROP COLUMN snoozed_until;
      DROP TABLE releases;
    `);
  }
}
