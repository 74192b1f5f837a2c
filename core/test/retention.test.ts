import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createProject } from '../src/projects';
import { signUp } from '../src/accounts';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db';
import { purgeExpired } from '../src/retention';
import { ensurePartitions, PARTITIONED_TABLES } from '../src/partitions';
import { PLANS } from '../src/plans';
import { recordIssueActivity } from '../src/activity';
import { createTempDir, createTestPostgres, type TestPostgres } from '../src/testing';

const DAY = 86_400_000;
/** A Wednesday, noon UTC. */
const NOW = new Date('2026-11-25T12:00:00Z');

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

    /** A project on `plan` with one issue and events/logs/vitals received `ages` days before `at`. */
    async function seed(plan: 'free' | 'pro', ages: number[], at = NOW) {
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
      const days = PLANS[plan].retentionDays;
      for (const age of ages) {
        const received = new Date(at.getTime() - age * DAY);
        for (const table of PARTITIONED_TABLES)
          await ensurePartitions(db.ds, table, [{ retentionDays: days, receivedAt: received }]);
        const when = received.toISOString();
        await db.ds.query(
          `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment, frames, tags, retention_days)
           VALUES ($1, $2, $3, $4, $4, 'error', 'Error', 'm', 'production', '[]', '{}', $5)`,
          [project.id, issue.id, randomUUID(), when, days],
        );
        // The client's time says long ago: retention goes by when the line was received.
        await db.ds.query(
          `INSERT INTO logs (project_id, id, level, message, environment, timestamp, received_at, retention_days)
           VALUES ($1, $2, 'info', 'm', 'p', '2020-01-01T00:00:00Z', $3, $4)`,
          [project.id, randomUUID(), when, days],
        );
        await db.ds.query(
          `INSERT INTO vitals_reports (project_id, id, url, lcp, environment, received_at, retention_days) VALUES ($1, $2, '/', 1, 'p', $3, $4)`,
          [project.id, randomUUID(), when, days],
        );
      }
      return { projectId: project.id, issueId: issue.id as string };
    }

    async function count(table: string, projectId: string): Promise<number> {
      return (await db.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`, [projectId]))[0].n;
    }

    test("weeks older than the plan's retention are dropped whole; younger rows and issue counts stay", async () => {
      // NOW is a Wednesday: free keeps 1 and 29 days, drops 45 and 100; pro keeps 1, 31 and 89
      // (its week ends 87 days before NOW), drops 100 and 200.
      const free = await seed('free', [1, 29, 45, 100]);
      const pro = await seed('pro', [1, 31, 89, 100, 200]);
      const r = await purgeExpired(db.ds, { chunk: 1, now: NOW });
      assert.equal(r.ran, true);
      for (const table of ['events', 'logs', 'vitals_reports']) {
        assert.equal(await count(table, free.projectId), 2, `free ${table}: 30 days`);
        assert.equal(await count(table, pro.projectId), 3, `pro ${table}: 90 days`);
      }
      assert.deepEqual({ events: r.events, logs: r.logs, vitals: r.vitals }, { events: 4, logs: 4, vitals: 4 });
      assert.deepEqual(
        r.partitions.map((p) => p.name),
        ['events', 'logs', 'vitals_reports'].flatMap((t) =>
          ['r30_20260817', 'r30_20261005', 'r90_20260504', 'r90_20260817'].map((w) => `${t}_${w}`),
        ),
      );
      const [issue] = await db.ds.query('SELECT event_count FROM issues WHERE id = $1', [free.issueId]);
      assert.equal(Number(issue.event_count), 4, 'issues keep their counts');
      const again = await purgeExpired(db.ds, { now: NOW });
      assert.equal(again.events + again.logs + again.vitals, 0);
      assert.deepEqual(again.partitions, []);
    });

    test('embedded, the purge ends with ANALYZE (PGlite has no autovacuum); PostgreSQL leaves it to autovacuum', async () => {
      await seed('pro', [1, 2, 3]);
      const r = await purgeExpired(db.ds, { now: NOW });
      const [issues] = await db.ds.query("SELECT reltuples FROM pg_class WHERE relname = 'issues'");
      if (kind === 'pglite') {
        assert.equal(typeof r.analyzeMs, 'number');
        assert.ok(Number(issues.reltuples) >= 1, `issues analyzed: reltuples ${issues.reltuples}`);
      } else {
        assert.equal(r.analyzeMs, null);
      }
    });

    test('a week is kept until all of it is past the retention: rows overshoot by up to a week', async () => {
      // Monday 00:00, 30.5 days before NOW: past the free plan's 30 days, but its week runs to the
      // next Monday, 23.5 days before NOW, so the week stays until then plus 30 days.
      const monday = new Date('2026-10-26T00:00:00Z');
      const free = await seed('free', [0], monday);
      await purgeExpired(db.ds, { now: NOW });
      assert.equal(await count('events', free.projectId), 1);
      const r = await purgeExpired(db.ds, { now: new Date('2026-12-02T00:00:00Z') });
      assert.equal(await count('events', free.projectId), 0);
      assert.ok(r.partitions.some((p) => p.name === 'events_r30_20261026' && p.rows >= 1));
    });

    test('a row keeps the retention of the plan it was received under', async () => {
      // Received on free 45 days ago, then the organization moved to business: its week still
      // goes at 30 days (the plan's own rows from now on keep 365).
      const free = await seed('free', [45]);
      await db.ds.query(
        `UPDATE organizations SET plan = 'business' WHERE id = (SELECT organization_id FROM projects WHERE id = $1)`,
        [free.projectId],
      );
      await purgeExpired(db.ds, { now: NOW });
      assert.equal(await count('events', free.projectId), 0);
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
