import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Usage warnings (issue 5): one row per organization, meter, period and threshold (80 %, 100 %)
 * crossed. The unique key makes "send it once per period" hold across worker processes: the
 * insert that wins is the one that queues the email, because the row *is* the queued email (an
 * outbox: status, attempts, next attempt), sent after commit by whichever process claims it.
 */
export class UsageWarnings1796100000000 implements MigrationInterface {
  name = 'UsageWarnings1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE usage_warnings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        meter text NOT NULL CHECK (meter IN ('events', 'logs')),
        period text NOT NULL,
        threshold integer NOT NULL CHECK (threshold IN (80, 100)),
        used bigint NOT NULL,
        quota bigint NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'unsent', 'superseded')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        recipients text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        UNIQUE (organization_id, meter, period, threshold)
      )`);
    // The sender's scan: only rows still to send, oldest due first.
    await q.query(
      `CREATE INDEX usage_warnings_due_idx ON usage_warnings (next_attempt_at) WHERE status IN ('pending', 'sending')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE usage_warnings');
  }
}
