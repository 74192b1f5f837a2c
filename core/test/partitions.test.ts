import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  createProject,
  openDatabase,
  persistEvents,
  persistLogs,
  persistVitals,
  prepareEvent,
  prepareLog,
  prepareVitals,
  signUp,
  type Database,
  type ErrorEvent,
} from '../src';
import { initPgliteDataDir } from '../src/db/init-pglite-data-dir';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '../src/testing';
import { dropExpiredPartitions } from '../src/partitions';
import { Client } from 'pg';

/** Sunday 23:59:59.999 UTC: the last instant of a week partition. */
const SUNDAY_LAST = new Date('2026-11-29T23:59:59.999Z');
const MONDAY_FIRST = new Date('2026-11-30T00:00:00.000Z');

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`partitioned events, logs and vitals (${kind})`, () => {
    let pg: TestPostgres | undefined;
    let dir: TempDir | undefined;
    let db: Database;

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      dir = kind === 'pglite' ? createTempDir() : undefined;
      db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' }, { migrate: true });
    });
    after(async () => {
      await db.close();
      await pg?.drop();
      dir?.remove();
    });

    async function account(plan: 'free' | 'pro' = 'free') {
      const s = await signUp(
        db.ds,
        { email: `p-${randomUUID()}@example.com`, password: 'long enough pw', organizationName: 'Parts' },
        plan,
      );
      const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'Web');
      return { projectId: project.id, organizationId: s.organization.id };
    }

    function errorJob(projectId: string, eventId: string, receivedAt: Date) {
      return prepareEvent({
        v: 1,
        kind: 'error',
        projectId,
        receivedAt: receivedAt.toISOString(),
        event: {
          type: 'Error',
          message: 'boom',
          environment: 'production',
          fingerprint: ['one'],
          timestamp: receivedAt.toISOString(),
          eventId,
        } as ErrorEvent & { eventId: string },
      });
    }

    async function persist(projectId: string, eventId: string, receivedAt: Date) {
      return db.ds.transaction((em) => persistEvents(em, [errorJob(projectId, eventId, receivedAt)]));
    }

    async function eventCount(projectId: string): Promise<{ stored: number; counted: number }> {
      const [r] = await db.ds.query(
        `SELECT (SELECT count(*)::int FROM events WHERE project_id = $1) AS stored,
                (SELECT coalesce(sum(event_count), 0)::int FROM issues WHERE project_id = $1) AS counted`,
        [projectId],
      );
      return r;
    }

    test('a redelivered job received in the last instant of a week inserts and counts nothing', async () => {
      const { projectId } = await account();
      const eventId = randomUUID();
      assert.equal((await persist(projectId, eventId, SUNDAY_LAST)).inserted, 1);
      const again = await persist(projectId, eventId, SUNDAY_LAST);
      assert.deepEqual({ inserted: again.inserted, duplicates: again.duplicates }, { inserted: 0, duplicates: 1 });
      assert.deepEqual(await eventCount(projectId), { stored: 1, counted: 1 });
      const [row] = await db.ds.query(`SELECT tableoid::regclass::text AS p FROM events WHERE event_id = $1`, [
        eventId,
      ]);
      assert.equal(row.p, 'events_r30_20261123');
    });

    test('an SDK retry of the same event id received in the next week inserts and counts nothing, either order', async () => {
      const { projectId } = await account();
      const first = randomUUID();
      await persist(projectId, first, SUNDAY_LAST);
      assert.equal((await persist(projectId, first, MONDAY_FIRST)).inserted, 0);
      // The retry's job can be processed first (two edges, two streams).
      const second = randomUUID();
      await persist(projectId, second, MONDAY_FIRST);
      assert.equal((await persist(projectId, second, SUNDAY_LAST)).inserted, 0);
      // The same id twice in one batch, a minute apart.
      const third = randomUUID();
      const r = await db.ds.transaction((em) =>
        persistEvents(em, [errorJob(projectId, third, SUNDAY_LAST), errorJob(projectId, third, MONDAY_FIRST)]),
      );
      assert.deepEqual({ inserted: r.inserted, duplicates: r.duplicates }, { inserted: 1, duplicates: 1 });
      assert.deepEqual(await eventCount(projectId), { stored: 3, counted: 3 });
    });

    test('a job redelivered after its organization changed plan inserts and counts nothing', async () => {
      const { projectId, organizationId } = await account('free');
      const eventId = randomUUID();
      const at = new Date('2026-11-25T10:00:00Z');
      await persist(projectId, eventId, at);
      const log = prepareLog({
        v: 1,
        kind: 'log',
        projectId,
        receivedAt: at.toISOString(),
        log: { level: 'info', message: 'hi', environment: 'production', id: randomUUID() },
      } as never);
      const vitals = prepareVitals({
        v: 1,
        kind: 'vitals',
        projectId,
        receivedAt: at.toISOString(),
        vitals: { url: '/', metrics: { LCP: 1200 }, environment: 'production', id: randomUUID() },
      } as never);
      await db.ds.transaction(async (em) => {
        await persistLogs(em, [log]);
        await persistVitals(em, [vitals]);
      });
      await db.ds.query(`UPDATE organizations SET plan = 'business' WHERE id = $1`, [organizationId]);
      assert.equal((await persist(projectId, eventId, at)).inserted, 0);
      const again = await db.ds.transaction(async (em) => ({
        logs: (await persistLogs(em, [log])).inserted,
        vitals: (await persistVitals(em, [vitals])).inserted,
      }));
      assert.deepEqual(again, { logs: 0, vitals: 0 });
      assert.deepEqual(await eventCount(projectId), { stored: 1, counted: 1 });
      // A new event goes to the business plan's partitions.
      await persist(projectId, randomUUID(), at);
      const where = await db.ds.query(
        `SELECT tableoid::regclass::text AS p, retention_days FROM events WHERE project_id = $1 ORDER BY id`,
        [projectId],
      );
      assert.deepEqual(
        where.map((w: { p: string; retention_days: number }) => `${w.p}:${w.retention_days}`),
        ['events_r30_20261123:30', 'events_r365_20261123:365'],
      );
    });

    test('an event received far outside the weeks created ahead is stored: its partition is made on demand', async () => {
      const { projectId } = await account('pro');
      for (const at of [new Date('2031-06-18T12:00:00Z'), new Date('2019-02-06T08:00:00Z')]) {
        assert.equal((await persist(projectId, randomUUID(), at)).inserted, 1);
      }
      const parts = await db.ds.query(
        `SELECT tableoid::regclass::text AS p FROM events WHERE project_id = $1 ORDER BY received_at`,
        [projectId],
      );
      assert.deepEqual(
        parts.map((p: { p: string }) => p.p),
        ['events_r90_20190204', 'events_r90_20310616'],
      );
      // A week past its retention that another process's purge dropped is made again, although
      // this process made it before: the cache does not vouch for weeks a purge may drop.
      await db.ds.query('DROP TABLE events_r90_20190204');
      assert.equal((await persist(projectId, randomUUID(), new Date('2019-02-07T12:00:00Z'))).inserted, 1);
    });

    test('an expired week too slow to count is dropped with the planner estimate of its rows', async (t) => {
      if (kind !== 'postgres') return t.skip('statement timeouts need a server: PGlite runs one statement at a time');
      const { projectId } = await account('free'); // 30 days
      const week = new Date('2025-03-05T12:00:00Z');
      for (let i = 0; i < 3; i++) await persist(projectId, randomUUID(), week);
      await db.ds.query('ANALYZE events_r30_20250303');
      // Another session holds the week: counting it cannot finish within its budget.
      const holder = new Client({ connectionString: pg!.url });
      await holder.connect();
      const runner = db.ds.createQueryRunner();
      try {
        await holder.query('BEGIN');
        // Released well after the count's budget has run out.
        await holder.query('LOCK TABLE events_r30_20250303 IN ACCESS EXCLUSIVE MODE');
        const release = setTimeout(() => void holder.query('COMMIT'), 1_500);
        const started = Date.now();
        const dropped = await dropExpiredPartitions(runner, new Date(), { concurrently: true, countBudgetMs: 200 });
        clearTimeout(release);
        const week30 = dropped.find((d) => d.name === 'events_r30_20250303');
        assert.deepEqual(week30, { table: 'events', name: 'events_r30_20250303', rows: 3, estimated: true });
        assert.ok(Date.now() - started >= 1_400, 'the drop itself still waited for the holder');
      } finally {
        await runner.release();
        await holder.end();
      }
    });
  });

  describe(`the partitioning migration on a database holding rows (${kind})`, () => {
    let pg: TestPostgres | undefined;
    let dir: TempDir | undefined;

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      dir = kind === 'pglite' ? createTempDir() : undefined;
    });
    after(async () => {
      await pg?.drop();
      dir?.remove();
    });

    test('moves every row into its retention and week, keeps ids, and the worker goes on', async () => {
      // The database as it was before the migration (PGlite: made by initdb, not from the image,
      // which holds every migration).
      if (dir) await initPgliteDataDir(dir.path, null);
      let db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' });
      try {
        const index = db.ds.migrations.findIndex((m) => m.name === 'PartitionedTables1796500000000');
        assert.ok(index > 0);
        db.ds.migrations.splice(index);
        await db.ds.runMigrations({ transaction: 'each' });
        // Plain SQL, not signUp/createProject: those write through entities and tables of later
        // migrations (users' columns, the audit log), which this database does not have yet.
        const project = async (plan: string) => {
          const [org] = await db.ds.query(
            `INSERT INTO organizations (name, slug, plan) VALUES ($1, $1, $2) RETURNING id`,
            [`m-${randomUUID()}`, plan],
          );
          const [row] = await db.ds.query(`INSERT INTO projects (organization_id, name) VALUES ($1, 'p') RETURNING id`, [
            org.id,
          ]);
          return row.id as string;
        };
        const pf = await project('free');
        const pb = await project('business');
        for (const [p, n] of [
          [pf, 3],
          [pb, 2],
        ] as const) {
          const [issue] = await db.ds.query(
            `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
             VALUES ($1, 'fp', 't', 'Error', 'error', now(), now(), $2) RETURNING id`,
            [p, n],
          );
          for (let i = 0; i < n; i++) {
            const at = new Date(Date.UTC(2026, 9, 1 + i * 10, 12)).toISOString();
            await db.ds.query(
              `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment, release)
               VALUES ($1, $2, $3, $4, $4, 'error', 'Error', 'm', 'production', '1.0')`,
              [p, issue.id, randomUUID(), at],
            );
            await db.ds.query(
              `INSERT INTO logs (project_id, id, level, message, environment, timestamp, received_at) VALUES ($1, $2, 'info', 'm', 'p', $3, $3)`,
              [p, randomUUID(), at],
            );
            await db.ds.query(
              `INSERT INTO vitals_reports (project_id, id, url, lcp, environment, received_at) VALUES ($1, $2, '/', 1, 'p', $3)`,
              [p, randomUUID(), at],
            );
          }
        }
        const ids = await db.ds.query('SELECT id::text, event_id FROM events ORDER BY id');
        await db.close();

        db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' }, { migrate: true });
        assert.deepEqual(await db.ds.query('SELECT id::text, event_id FROM events ORDER BY id'), ids);
        const placed = await db.ds.query(
          `SELECT tableoid::regclass::text AS p, count(*)::int AS n FROM events GROUP BY 1 ORDER BY 1`,
        );
        assert.deepEqual(placed, [
          { p: 'events_r30_20260928', n: 1 },
          { p: 'events_r30_20261005', n: 1 },
          { p: 'events_r30_20261019', n: 1 },
          { p: 'events_r365_20260928', n: 1 },
          { p: 'events_r365_20261005', n: 1 },
        ]);
        for (const table of ['logs', 'vitals_reports']) {
          const [r] = await db.ds.query(
            `SELECT count(*)::int AS n, count(*) FILTER (WHERE retention_days = 30)::int AS free FROM ${table}`,
          );
          assert.deepEqual(r, { n: 5, free: 3 }, table);
        }
        const indexes = await db.ds.query(
          `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid IN ('events'::regclass, 'logs'::regclass, 'vitals_reports'::regclass) AND i.indisvalid
            ORDER BY 1`,
        );
        assert.deepEqual(
          indexes.map((i: { name: string }) => i.name),
          [
            'events_issue_timestamp_idx',
            'events_project_event_id_key',
            'events_project_release_idx',
            'logs_pkey',
            'logs_project_env_timestamp_idx',
            'logs_project_level_timestamp_idx',
            'logs_project_timestamp_idx',
            'vitals_reports_pkey',
            'vitals_reports_project_env_received_idx',
            'vitals_reports_project_received_idx',
          ],
        );
        // New events take ids after the old ones, and deleting an issue still deletes its events.
        const r = await db.ds.transaction((em) =>
          persistEvents(em, [
            prepareEvent({
              v: 1,
              kind: 'error',
              projectId: pf,
              receivedAt: new Date().toISOString(),
              event: { type: 'Error', message: 'after', environment: 'production', eventId: randomUUID() },
            } as never),
          ]),
        );
        assert.equal(r.inserted, 1);
        const [last] = await db.ds.query(`SELECT max(id)::int AS id FROM events`);
        assert.ok(last.id > Number(ids[ids.length - 1].id));
        await db.ds.query(`DELETE FROM issues WHERE project_id = $1`, [pb]);
        const [left] = await db.ds.query(`SELECT count(*)::int AS n FROM events WHERE project_id = $1`, [pb]);
        assert.equal(left.n, 0);
      } finally {
        await db.close();
      }
    });
  });
}
