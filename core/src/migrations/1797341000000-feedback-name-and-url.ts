import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30: feedback keeps who wrote it (`name`, beside `email`) and the page it was written on
 * (`url`), as Sentry's feedback widget and `captureFeedback` send them. Nullable, no default:
 * existing rows are not rewritten.
 */
export class FeedbackNameAndUrl1797341000000 implements MigrationInterface {
  name = 'FeedbackNameAndUrl1797341000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE feedback ADD COLUMN name text, ADD COLUMN url text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE feedback DROP COLUMN name, DROP COLUMN url');
  }
}
