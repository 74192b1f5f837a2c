import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createProject } from '../src/projects';
import { signUp } from '../src/accounts';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db';
import { purgeExpired } from '../src/retention';
import { recordIssueActivity } from '../src/activity';
import { createTempDir, createTestPostgres, type TestPostgres } from '../src/testing';

const DAY = 86_400_000;

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`retention purge (${kind})`, () => {
    let pg: TestPostgres | undefined;
    const dir = createTempDir();
    let db: Database;

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      db = await openDatabase(loadConfig({ TRACKER_DATA_DIR: dir.path, ...(pg ? { DATABASE_URL: pg.url } : {}) }), {
        migrate: true,
      });
    });
    after(async () => {
      await db.close();
      await pg?.drop();
      dir.remove();
    });

    /** A project on `plan` with one issue and events/logs/vitals received `ages` days ago. */
    async function seed(plan: 'free' | 'pro', ages: number[]) {
      const s = await signUp(
        db.ds,
        { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Org' },
        plan,
      );
      const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'p');
      const [issue] = await db.ds.query(
        `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
         VALUES ($1, 'fp', 't', 'Error', 'error', now() - interval '400 days', now(), $2) RETURNING id`,
        [project.id, ages.length],
      );
      for (const age of ages) {
        const at = new Date(Date.now() - age * DAY).toISOString();
        await db.ds.query(
          `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment, frames, tags)
           VALUES ($1, $2, $3, $4, $4, 'error', 'Error', 'm', 'production', '[]', '{}')`,
          [project.id, issue.id, randomUUID(), at],
        );
        await db.ds.query(
          `INSERT INTO logs (project_id, id, level, message, environment, timestamp, received_at) VALUES ($1, $2, 'info', 'm', 'p', $3, $3)`,
          [project.id, randomUUID(), at],
        );
        await db.ds.query(
          `INSERT INTO vitals_reports (project_id, id, url, lcp, environment, received_at) VALUES ($1, $2, '/', 1, 'p', $3)`,
          [project.id, randomUUID(), at],
        );
      }
      return { projectId: project.id, issueId: issue.id as string };
    }

    async function count(table: string, projectId: string): Promise<number> {
      return (await db.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`, [projectId]))[0].n;
    }

    test("rows older than the plan's retention go; younger ones and issue counts stay", async () => {
      const free = await seed('free', [1, 29, 31, 100]);
      const pro = await seed('pro', [1, 31, 89, 91, 200]);
      const r = await purgeExpired(db.ds, { chunk: 1 }); // chunk 1: the loop runs to the end
      assert.equal(r.ran, true);
      for (const table of ['events', 'logs', 'vitals_reports']) {
        assert.equal(await count(table, free.projectId), 2, `free ${table}: 30 days`);
        assert.equal(await count(table, pro.projectId), 3, `pro ${table}: 90 days`);
      }
      assert.deepEqual({ events: r.events, logs: r.logs, vitals: r.vitals }, { events: 4, logs: 4, vitals: 4 });
      const [issue] = await db.ds.query('SELECT event_count FROM issues WHERE id = $1', [free.issueId]);
      assert.equal(Number(issue.event_count), 4, 'issues keep their counts');
      const again = await purgeExpired(db.ds);
      assert.equal(again.events + again.logs + again.vitals, 0);
    });

    test("issue activity and comments older than the plan's retention go, with a comment's own row", async () => {
      const free = await seed('free', []);
      const ages = [1, 29, 31, 100];
      for (const age of ages) {
        const at = new Date(Date.now() - age * DAY);
        await db.ds.transaction((em) =>
          recordIssueActivity(em, {
            issueId: free.issueId,
            projectId: free.projectId,
            kind: 'RESOLVED',
            message: `resolved ${age} days ago`,
            at,
          }),
        );
        const [c] = await db.ds.query(
          `INSERT INTO issue_comments (issue_id, project_id, body, created_at, updated_at) VALUES ($1, $2, 'b', $3, $3) RETURNING id`,
          [free.issueId, free.projectId, at.toISOString()],
        );
        await db.ds.transaction((em) =>
          recordIssueActivity(em, {
            issueId: free.issueId,
            projectId: free.projectId,
            kind: 'COMMENTED',
            message: 'b',
            commentId: c.id,
            at,
          }),
        );
      }
      assert.equal(await count('issue_activity', free.projectId), 8);
      const r = await purgeExpired(db.ds, { chunk: 1 });
      assert.equal(r.ran, true);
      assert.equal(r.comments, 2);
      // 2 RESOLVED rows by age; the 2 old COMMENTED rows went with their comments.
      assert.equal(r.activity, 2);
      const left = await db.ds.query(
        `SELECT kind, message FROM issue_activity WHERE project_id = $1 ORDER BY created_at DESC, kind`,
        [free.projectId],
      );
      assert.deepEqual(
        left.map((x: { kind: string; message: string }) => `${x.kind}:${x.message}`),
        ['COMMENTED:b', 'RESOLVED:resolved 1 days ago', 'COMMENTED:b', 'RESOLVED:resolved 29 days ago'],
      );
      assert.equal(await count('issue_comments', free.projectId), 2);
    });
  });
}
