import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32: the audit log, one row per security-relevant change, written in the change's own
 * transaction (core/src/audit). Rows are numbered in write order (the keyset of the API's pages,
 * per organization) and purged after a year through the `created_at` index (decision 061). The
 * actor's email and the target's name are copied: the row must outlive renames and departures,
 * so the references to users and tokens are set null, never cascaded, when those go.
 */
export class AuditLog1797400000000 implements MigrationInterface {
  name = 'AuditLog1797400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        actor_type text NOT NULL CHECK (actor_type IN ('user', 'api_token', 'system')),
        actor_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        actor_api_token_id uuid REFERENCES api_tokens(id) ON DELETE SET NULL,
        actor_label text NOT NULL,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text,
        target_label text,
        changes jsonb,
        client_address text,
        user_agent text
      )`);
    await q.query('CREATE INDEX audit_log_organization ON audit_log (organization_id, id DESC)');
    await q.query('CREATE INDEX audit_log_organization_action ON audit_log (organization_id, action, id DESC)');
    await q.query('CREATE INDEX audit_log_created_at ON audit_log (created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE audit_log');
  }
}
