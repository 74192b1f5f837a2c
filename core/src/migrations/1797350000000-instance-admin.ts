import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31: instance admins (decision 051). `users.is_admin` marks who may use the admin screen;
 * an instance upgraded from before has none, so its oldest account (the one that set it up, as
 * on a new instance the first account is the admin) becomes the admin here. `billing_log` says
 * who changed a plan by hand: `changed_by` is the admin's user id (null for the operator command,
 * Stripe and the grace sweeper).
 */
export class InstanceAdmin1797350000000 implements MigrationInterface {
  name = 'InstanceAdmin1797350000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users ADD COLUMN is_admin boolean NOT NULL DEFAULT false;
      UPDATE users SET is_admin = true
       WHERE id = (SELECT id FROM users ORDER BY created_at, id LIMIT 1);
      ALTER TABLE billing_log ADD COLUMN changed_by uuid REFERENCES users (id) ON DELETE SET NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE billing_log DROP COLUMN changed_by; ALTER TABLE users DROP COLUMN is_admin');
  }
}
