import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The walking skeleton's schema. Hand-written SQL rather than generated: the same file runs on
 * PostgreSQL 15 and on PGlite (PostgreSQL 18), and every index here is chosen for a query
 * named beside it.
 */
export class Initial1763769600000 implements MigrationInterface {
  name = 'Initial1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_email_key ON users (email);

      CREATE TABLE organizations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        slug text NOT NULL,
        plan text NOT NULL CHECK (plan IN ('free', 'pro', 'business')),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX organizations_slug_key ON organizations (slug);

      CREATE TABLE memberships (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, user_id)
      );
      -- "which organizations can this user see" runs on every authenticated request.
      CREATE INDEX memberships_user_idx ON memberships (user_id);

      CREATE TABLE sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE UNIQUE INDEX sessions_token_hash_key ON sessions (token_hash);
      CREATE INDEX sessions_user_idx ON sessions (user_id);

      CREATE TABLE projects (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX projects_organization_idx ON projects (organization_id);

      CREATE TABLE project_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        public_key text NOT NULL,
        rate_limit_per_second integer CHECK (rate_limit_per_second > 0),
        disabled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX project_keys_public_key_key ON project_keys (public_key);
      CREATE INDEX project_keys_project_idx ON project_keys (project_id);

      CREATE TABLE issues (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        fingerprint text NOT NULL,
        title text NOT NULL,
        type text NOT NULL,
        culprit text,
        level text NOT NULL,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'snoozed')),
        is_regression boolean NOT NULL DEFAULT false,
        event_count bigint NOT NULL DEFAULT 0,
        user_count integer NOT NULL DEFAULT 0,
        first_seen timestamptz NOT NULL,
        last_seen timestamptz NOT NULL
      );
      -- The worker's upsert target.
      CREATE UNIQUE INDEX issues_project_fingerprint_key ON issues (project_id, fingerprint);
      -- The issues page: one project and status, newest activity first, keyset-paginated.
      CREATE INDEX issues_project_status_last_seen_idx ON issues (project_id, status, last_seen DESC, id DESC);

      -- Distinct users per issue: one row per (issue, user key) makes "users affected" an
      -- exact count maintained by insert-if-absent, with no COUNT(DISTINCT) at read time.
      CREATE TABLE issue_users (
        issue_id uuid NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
        user_key text NOT NULL,
        PRIMARY KEY (issue_id, user_key)
      );

      CREATE TABLE events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        issue_id uuid NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
        event_id uuid NOT NULL,
        timestamp timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        level text NOT NULL,
        type text NOT NULL,
        message text NOT NULL,
        environment text NOT NULL,
        release text,
        url text,
        handled boolean,
        stack text,
        frames jsonb NOT NULL DEFAULT '[]',
        tags jsonb NOT NULL DEFAULT '{}',
        context jsonb,
        "user" jsonb,
        sdk jsonb,
        fingerprint jsonb
      );
      -- Idempotency: a redelivered job inserts nothing and so counts nothing.
      CREATE UNIQUE INDEX events_project_event_id_key ON events (project_id, event_id);
      -- An issue's events, newest first (latest event, events list).
      CREATE INDEX events_issue_timestamp_idx ON events (issue_id, timestamp DESC, id DESC);

      -- The embedded-mode queue (no Redis). Production uses Redis streams instead.
      CREATE TABLE queue_jobs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        topic text NOT NULL,
        payload text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        available_at timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz,
        last_error text,
        dead_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX queue_jobs_ready_idx ON queue_jobs (topic, available_at, id) WHERE dead_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE queue_jobs; DROP TABLE events; DROP TABLE issue_users; DROP TABLE issues;
      DROP TABLE project_keys; DROP TABLE projects; DROP TABLE sessions; DROP TABLE memberships;
      DROP TABLE organizations; DROP TABLE users;
    `);
  }
}
