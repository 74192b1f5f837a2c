import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scrubbing settings of a project (issue 15 §4), read by the ingest edge with the DSN key
 * (`findKeyInfo`) and applied before anything is queued (docs/privacy.md):
 * - `scrub_defaults`: the built-in sensitive key names and card numbers (on by default);
 * - `sensitive_fields`: the project's own key names, matched as case-insensitive substrings;
 * - `scrub_ip_addresses`: IPv4/IPv6 addresses in text and `user.ip_address` (off by default).
 */
export class ProjectPrivacy1796250000000 implements MigrationInterface {
  name = 'ProjectPrivacy1796250000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE projects
        ADD COLUMN scrub_defaults boolean NOT NULL DEFAULT true,
        ADD COLUMN sensitive_fields text[] NOT NULL DEFAULT '{}',
        ADD COLUMN scrub_ip_addresses boolean NOT NULL DEFAULT false
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE projects
        DROP COLUMN scrub_defaults,
        DROP COLUMN sensitive_fields,
        DROP COLUMN scrub_ip_addresses
    `);
  }
}
