import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 20, channels and delivery (docs/alerts.md, decision 027): Microsoft Teams and Discord
 * channels; the delivery log keeps the receiver's answer, marks test sends, and remembers when
 * the first attempt was made (retries stop an hour after it) and the last one.
 */
export class AlertDeliveryLog1796445000000 implements MigrationInterface {
  name = 'AlertDeliveryLog1796445000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alert_rules DROP CONSTRAINT alert_rules_channel_type_check`);
    await q.query(
      `ALTER TABLE alert_rules ADD CONSTRAINT alert_rules_channel_type_check
         CHECK (channel_type IN ('WEBHOOK', 'SLACK', 'EMAIL', 'TEAMS', 'DISCORD'))`,
    );
    await q.query(`ALTER TABLE alert_deliveries
      ADD COLUMN is_test boolean NOT NULL DEFAULT false,
      ADD COLUMN last_response text,
      ADD COLUMN first_attempt_at timestamptz,
      ADD COLUMN last_attempt_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alert_deliveries DROP COLUMN is_test, DROP COLUMN last_response,
      DROP COLUMN first_attempt_at, DROP COLUMN last_attempt_at`);
    await q.query(`DELETE FROM alert_rules WHERE channel_type IN ('TEAMS', 'DISCORD')`);
    await q.query(`ALTER TABLE alert_rules DROP CONSTRAINT alert_rules_channel_type_check`);
    await q.query(
      `ALTER TABLE alert_rules ADD CONSTRAINT alert_rules_channel_type_check CHECK (channel_type IN ('WEBHOOK', 'SLACK', 'EMAIL'))`,
    );
  }
}
