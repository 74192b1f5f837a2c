import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Log entries get a monthly cap of their own (issue 5), so `org_usage` counts per meter
 * (`events`, `logs`). Existing rows are event counts.
 */
export class UsageMeters1795950000000 implements MigrationInterface {
  name = 'UsageMeters1795950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE org_usage ADD COLUMN meter text NOT NULL DEFAULT 'events'`);
    await q.query('ALTER TABLE org_usage DROP CONSTRAINT org_usage_pkey');
    await q.query('ALTER TABLE org_usage ADD PRIMARY KEY (organization_id, meter, period)');
    await q.query(`ALTER TABLE org_usage ADD CONSTRAINT org_usage_meter_check CHECK (meter IN ('events', 'logs'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM org_usage WHERE meter <> 'events'`);
    await q.query('ALTER TABLE org_usage DROP CONSTRAINT org_usage_meter_check');
    await q.query('ALTER TABLE org_usage DROP CONSTRAINT org_usage_pkey');
    await q.query('ALTER TABLE org_usage ADD PRIMARY KEY (organization_id, period)');
    await q.query('ALTER TABLE org_usage DROP COLUMN meter');
  }
}
