import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 34: a project may name its trace viewer (Jaeger, Tempo, …) as a URL template with
 * `{traceId}`, so the issue page links an error to its trace. Nullable: no link until set.
 */
export class ProjectTraceUrlTemplate1797420000000 implements MigrationInterface {
  name = 'ProjectTraceUrlTemplate1797420000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE projects ADD COLUMN trace_url_template text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE projects DROP COLUMN trace_url_template');
  }
}
