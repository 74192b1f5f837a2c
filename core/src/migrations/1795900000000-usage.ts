import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event quotas (issue 5): the per-organization monthly count of the embedded backend. With
 * Redis the count lives in Redis and this table stays empty.
 */
export class Usage1795900000000 implements MigrationInterface {
  name = 'Usage1795900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE org_usage (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        period text NOT NULL,
        count integer NOT NULL DEFAULT 0,
        PRIMARY KEY (organization_id, period)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE org_usage');
  }
}
