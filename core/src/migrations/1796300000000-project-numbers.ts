import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Project numbers (issue 17): every project gets an integer unique in the instance, the last
 * path segment of its DSN (`https://et_<key>@host/<number>`). Sentry's SDKs keep only the
 * leading digits of that segment, so a UUID there was mangled or refused; a number lets them
 * send to `/api/<number>/envelope/` with the same DSN our SDKs use (they ignore the path).
 *
 * A sequence, not `max(number) + 1`: a deleted project's number is never handed out again, so
 * an old DSN cannot start feeding someone else's project. Existing projects are numbered in
 * the order they were created.
 */
export class ProjectNumbers1796300000000 implements MigrationInterface {
  name = 'ProjectNumbers1796300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE project_number_seq AS integer START WITH 1`);
    await q.query(`ALTER TABLE projects ADD COLUMN number integer`);
    await q.query(`
      UPDATE projects p SET number = n.number
        FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS number FROM projects) n
       WHERE p.id = n.id
    `);
    await q.query(`SELECT setval('project_number_seq', COALESCE((SELECT max(number) FROM projects), 0) + 1, false)`);
    await q.query(`
      ALTER TABLE projects
        ALTER COLUMN number SET DEFAULT nextval('project_number_seq'),
        ALTER COLUMN number SET NOT NULL,
        ADD CONSTRAINT projects_number_key UNIQUE (number)
    `);
    await q.query(`ALTER SEQUENCE project_number_seq OWNED BY projects.number`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE projects DROP COLUMN number`); // drops the owned sequence too
  }
}
