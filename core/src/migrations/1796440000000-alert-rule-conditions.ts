import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 20: more alert kinds, conditions and noise control (docs/alerts.md, decision 026).
 *
 * The counting kinds keep their windows in the database, not in a worker's memory: any number
 * of workers add to the same minute buckets and read the same sums. Buckets are per rule, so a
 * rule's conditions decide what it counts. `alert_rule_state` holds the action interval (last
 * firing, events since) per rule and subject (an issue id, or `project` / `log` for the kinds
 * without an issue); its row lock is what makes two workers fire a rule once.
 * `alert_digests` points at the one digest delivery a rule is still filling.
 */
export class AlertRuleConditions1796440000000 implements MigrationInterface {
  name = 'AlertRuleConditions1796440000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alert_rules DROP CONSTRAINT alert_rules_kind_check`);
    await q.query(
      `ALTER TABLE alert_rules ADD CONSTRAINT alert_rules_kind_check CHECK (kind IN ('REGRESSED_ISSUE', 'NEW_ISSUE',
        'ISSUE_FREQUENCY', 'USERS_AFFECTED', 'NEW_RELEASE_ISSUE', 'ERROR_SPIKE', 'LOG_MATCH'))`,
    );
    await q.query(`ALTER TABLE alert_rules
      ADD COLUMN threshold integer CHECK (threshold >= 0),
      ADD COLUMN window_minutes integer CHECK (window_minutes BETWEEN 1 AND 1440),
      ADD COLUMN query text,
      ADD COLUMN filter jsonb NOT NULL DEFAULT '{}',
      ADD COLUMN action_interval_minutes integer NOT NULL DEFAULT 30 CHECK (action_interval_minutes BETWEEN 0 AND 43200),
      ADD COLUMN digest_minutes integer CHECK (digest_minutes BETWEEN 1 AND 1440),
      ADD COLUMN muted_until timestamptz`);
    await q.query(`ALTER TABLE issues ADD COLUMN alerts_muted_until timestamptz`);
    await q.query(`
      CREATE TABLE alert_rule_state (
        rule_id uuid NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
        subject text NOT NULL,
        last_fired_at timestamptz,
        -- Events matching the rule since its last firing for this subject (the next one says it).
        events_since bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (rule_id, subject)
      )`);
    await q.query(`
      CREATE TABLE alert_rule_counts (
        rule_id uuid NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
        subject text NOT NULL,
        bucket timestamptz NOT NULL,
        events bigint NOT NULL,
        PRIMARY KEY (rule_id, subject, bucket)
      )`);
    await q.query(`
      CREATE TABLE alert_rule_users (
        rule_id uuid NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
        subject text NOT NULL,
        bucket timestamptz NOT NULL,
        user_key text NOT NULL,
        PRIMARY KEY (rule_id, subject, bucket, user_key)
      )`);
    await q.query(`
      CREATE TABLE alert_digests (
        rule_id uuid PRIMARY KEY REFERENCES alert_rules (id) ON DELETE CASCADE,
        delivery_id uuid REFERENCES alert_deliveries (id) ON DELETE SET NULL,
        closes_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alert_digests; DROP TABLE alert_rule_users; DROP TABLE alert_rule_counts;
      DROP TABLE alert_rule_state`);
    await q.query(`ALTER TABLE issues DROP COLUMN alerts_muted_until`);
    await q.query(`ALTER TABLE alert_rules DROP COLUMN threshold, DROP COLUMN window_minutes, DROP COLUMN query,
      DROP COLUMN filter, DROP COLUMN action_interval_minutes, DROP COLUMN digest_minutes, DROP COLUMN muted_until`);
    await q.query(`DELETE FROM alert_rules WHERE kind NOT IN ('REGRESSED_ISSUE', 'NEW_ISSUE')`);
    await q.query(`ALTER TABLE alert_rules DROP CONSTRAINT alert_rules_kind_check`);
    await q.query(
      `ALTER TABLE alert_rules ADD CONSTRAINT alert_rules_kind_check CHECK (kind IN ('REGRESSED_ISSUE', 'NEW_ISSUE'))`,
    );
  }
}
