import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Client } from 'pg';
import {
  createProject,
  openDatabase,
  persistEvents,
  persistLogs,
  persistVitals,
  prepareEvent,
  prepareLog,
  prepareVitals,
  purgeExpired,
  signUp,
  type Database,
  type ErrorEvent,
} from '../src';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '../src/testing';
import { StoredIdLedgers1797450000000 } from '../src/migrations/1797450000000-stored-id-ledgers';
import { ensurePartitionsBetween } from '../src/partitions';

const DAY_MS = 86_400_000;
/** A Wednesday: eight days later is in the week after next's neighbour, well outside any week of it. */
const FIRST = new Date('2026-11-04T10:00:00Z');

/**
 * An event id is stored once per project whatever happens (decision 067): two workers at the same
 * moment, two edges stamping their own receipt times, a retry more than a week later, a plan
 * change in between. Each case checks the rows and every counter derived from them.
 */
for (const kind of ['postgres', 'pglite'] as const) {
  describe(`an event id is stored once (${kind})`, () => {
    let pg: TestPostgres | undefined;
    let dir: TempDir | undefined;
    let db: Database;
    /** A second pool: another worker process's connections (PostgreSQL only). */
    let second: Database | undefined;
    let watcher: Client | undefined;

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      dir = kind === 'pglite' ? createTempDir() : undefined;
      db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' }, { migrate: true });
      if (pg) {
        second = await openDatabase({ databaseUrl: pg.url, dataDir: '' });
        watcher = new Client({ connectionString: pg.url });
        await watcher.connect();
      }
    });
    after(async () => {
      await watcher?.end();
      await second?.close();
      await db.close();
      await pg?.drop();
      dir?.remove();
    });

    async function account(plan: 'free' | 'pro' = 'free') {
      const s = await signUp(
        db.ds,
        { email: `once-${randomUUID()}@example.com`, password: 'long enough pw', organizationName: 'Once' },
        plan,
      );
      const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'Web');
      return { projectId: project.id, organizationId: s.organization.id };
    }

    /** The job as an edge queues it: the receipt time is that edge's clock. */
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
          release: 'web@1.0',
          fingerprint: ['one'],
          user: { id: `user-of-${eventId}` },
          tags: { region: 'eu' },
          timestamp: receivedAt.toISOString(),
          eventId,
        } as unknown as ErrorEvent & { eventId: string },
      });
    }

    function persistOn(on: Database, projectId: string, eventIds: string[], receivedAt: Date) {
      return on.ds.transaction((em) =>
        persistEvents(
          em,
          eventIds.map((id) => errorJob(projectId, id, receivedAt)),
        ),
      );
    }

    /** The rows and every counter kept from them: all must say the same number. */
    async function counts(projectId: string) {
      const [r] = await db.ds.query(
        `SELECT (SELECT count(*)::int FROM events WHERE project_id = $1) AS stored,
                (SELECT count(DISTINCT event_id)::int FROM events WHERE project_id = $1) AS ids,
                (SELECT coalesce(sum(event_count), 0)::int FROM issues WHERE project_id = $1) AS "issueCount",
                (SELECT coalesce(sum(user_count), 0)::int FROM issues WHERE project_id = $1) AS "userCount",
                (SELECT coalesce(sum(e.event_count), 0)::int FROM issue_environments e WHERE e.project_id = $1) AS "envCount",
                (SELECT coalesce(sum(r.event_count), 0)::int FROM issue_releases r
                   JOIN issues i ON i.id = r.issue_id WHERE i.project_id = $1) AS "releaseCount"`,
        [projectId],
      );
      return r as Record<string, number>;
    }

    const all = (n: number) => ({ stored: n, ids: n, issueCount: n, userCount: n, envCount: n, releaseCount: n });

    test('two workers with one id at the same moment, through two edges: the second waits for the first and stores nothing', async () => {
      const { projectId } = await account();
      const eventId = randomUUID();
      // Two edges received it a second apart; each worker took one of the two jobs.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let written!: () => void;
      const stored = new Promise<void>((r) => (written = r));
      const first = db.ds.transaction(async (em) => {
        const r = await persistEvents(em, [errorJob(projectId, eventId, FIRST)]);
        written();
        await held; // this worker's transaction is still open while the other one runs
        return r;
      });
      // On PostgreSQL the other worker starts once the first has written (and not committed).
      if (watcher) await stored;
      const other = persistOn(second ?? db, projectId, [eventId], new Date(FIRST.getTime() + 1_000));
      if (watcher) {
        // Before the ledger the second insert did not wait (another receipt time is another key).
        await waitingForLock(watcher);
        release();
      } else {
        release(); // PGlite's one connection runs the two transactions one after the other
      }
      const [a, b] = await Promise.all([first, other]);
      assert.deepEqual([a.inserted, b.inserted, b.duplicates], [1, 0, 1]);
      assert.deepEqual(await counts(projectId), all(1));
    });

    test('two workers racing over the same 120 ids in opposite orders store each once', async () => {
      const { projectId } = await account();
      const ids = Array.from({ length: 120 }, () => randomUUID());
      const reversed = [...ids].reverse();
      const runs: Promise<{ inserted: number }>[] = [];
      for (let i = 0; i < 120; i += 30) {
        runs.push(persistOn(db, projectId, ids.slice(i, i + 30), FIRST));
        runs.push(persistOn(second ?? db, projectId, reversed.slice(i, i + 30), new Date(FIRST.getTime() + 5_000)));
      }
      const results = await Promise.all(runs);
      assert.equal(
        results.reduce((n, r) => n + r.inserted, 0),
        120,
      );
      assert.deepEqual(await counts(projectId), all(120));
    });

    test('a retry 8 days later, and one after the plan went from 30 to 90 days, store nothing', async () => {
      const { projectId, organizationId } = await account('free');
      const eventId = randomUUID();
      assert.equal((await persistOn(db, projectId, [eventId], FIRST)).inserted, 1);
      const later = new Date(FIRST.getTime() + 8 * DAY_MS);
      // The hourly purge ran meanwhile: the id is kept as long as its event is.
      await purgeExpired(db.ds, { now: later });
      assert.equal((await persistOn(db, projectId, [eventId], later)).inserted, 0);
      await db.ds.query(`UPDATE organizations SET plan = 'pro' WHERE id = $1`, [organizationId]);
      const r = await persistOn(db, projectId, [eventId], new Date(later.getTime() + DAY_MS));
      assert.deepEqual({ inserted: r.inserted, duplicates: r.duplicates }, { inserted: 0, duplicates: 1 });
      assert.deepEqual(await counts(projectId), all(1));
    });

    test('logs and vitals reports: a retry received elsewhere, later and after a plan change stores nothing', async () => {
      const { projectId, organizationId } = await account('free');
      const logId = randomUUID();
      const vitalsId = randomUUID();
      const store = (at: Date) =>
        db.ds.transaction(async (em) => ({
          logs: (
            await persistLogs(em, [
              prepareLog({
                v: 1,
                kind: 'log',
                projectId,
                receivedAt: at.toISOString(),
                log: { level: 'info', message: 'hi', environment: 'production', id: logId },
              } as never),
            ])
          ).inserted,
          vitals: (
            await persistVitals(em, [
              prepareVitals({
                v: 1,
                kind: 'vitals',
                projectId,
                receivedAt: at.toISOString(),
                vitals: { url: '/', metrics: { LCP: 1200 }, environment: 'production', id: vitalsId },
              } as never),
            ])
          ).inserted,
        }));
      assert.deepEqual(await store(FIRST), { logs: 1, vitals: 1 });
      assert.deepEqual(await store(new Date(FIRST.getTime() + 8 * DAY_MS)), { logs: 0, vitals: 0 });
      await db.ds.query(`UPDATE organizations SET plan = 'pro' WHERE id = $1`, [organizationId]);
      assert.deepEqual(await store(new Date(FIRST.getTime() + 9 * DAY_MS)), { logs: 0, vitals: 0 });
      const [n] = await db.ds.query(
        `SELECT (SELECT count(*)::int FROM logs WHERE project_id = $1) AS logs,
                (SELECT count(*)::int FROM vitals_reports WHERE project_id = $1) AS vitals`,
        [projectId],
      );
      assert.deepEqual(n, { logs: 1, vitals: 1 });
    });

    test('the purge forgets an id with its dropped week, not before: a receipt past retention is stored anew', async () => {
      const { projectId } = await account('free');
      const eventId = randomUUID();
      const at = new Date('2026-06-03T10:00:00Z'); // week of Monday 2026-06-01, kept until 2026-07-08
      await persistOn(db, projectId, [eventId], at);
      const ledger = async () =>
        (
          await db.ds.query(`SELECT expires_on::text AS d FROM stored_event_ids WHERE project_id = $1 AND id = $2`, [
            projectId,
            eventId,
          ])
        ).map((r: { d: string }) => r.d);
      assert.deepEqual(await ledger(), ['2026-07-08']);
      await purgeExpired(db.ds, { now: new Date('2026-07-07T23:59:59Z') });
      assert.deepEqual(await ledger(), ['2026-07-08'], 'kept while the week is');
      const r = await purgeExpired(db.ds, { now: new Date('2026-07-08T00:00:00Z') });
      assert.ok(r.partitions.some((p) => p.name === 'events_r30_20260601'));
      assert.ok(r.ledgerIds >= 1);
      assert.deepEqual(await ledger(), []);
      assert.equal((await persistOn(db, projectId, [eventId], new Date('2026-07-09T10:00:00Z'))).inserted, 1);
    });

    test('an event dropped for a discarded issue leaves its id free', async () => {
      const { projectId } = await account();
      await persistOn(db, projectId, [randomUUID()], FIRST);
      await db.ds.query(`UPDATE issues SET discarded_at = now() WHERE project_id = $1`, [projectId]);
      const dropped = randomUUID();
      const r = await persistOn(db, projectId, [dropped], FIRST);
      assert.equal(r.inserted, 0);
      const [held] = await db.ds.query(`SELECT count(*)::int AS n FROM stored_event_ids WHERE project_id = $1`, [
        projectId,
      ]);
      assert.equal(held.n, 1, 'only the stored event holds its id');
    });

    // Last: it takes the ledgers away and makes them again from the stored rows.
    test('the migration fills the ledgers from the stored rows; an id stored twice before keeps the later expiry', async () => {
      const { projectId } = await account('free');
      const eventId = randomUUID();
      await persistOn(db, projectId, [eventId], FIRST);
      const migration = new StoredIdLedgers1797450000000();
      const runner = db.ds.createQueryRunner();
      try {
        await migration.down(runner);
        // A copy stored before the ledgers existed: another receipt, another retention (the old gap).
        const copyAt = new Date(FIRST.getTime() + 8 * DAY_MS);
        await ensurePartitionsBetween(db.ds, 'events', 90, copyAt, copyAt);
        await runner.query(
          `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment,
             retention_days)
           SELECT project_id, issue_id, event_id, timestamp, $2, level, type, message, environment, 90
             FROM events WHERE event_id = $1`,
          [eventId, copyAt.toISOString()],
        );
        await migration.up(runner);
      } finally {
        await runner.release();
      }
      const rows = await db.ds.query(`SELECT expires_on::text AS d FROM stored_event_ids WHERE id = $1`, [eventId]);
      // Week of Monday 2026-11-09 + 7 days + 90 days.
      assert.deepEqual(rows, [{ d: '2027-02-14' }]);
      const [n] = await db.ds.query(
        `SELECT (SELECT count(*)::int FROM stored_event_ids) = (SELECT count(DISTINCT (project_id, event_id))::int FROM events) AS events,
                (SELECT count(*)::int FROM stored_log_ids) = (SELECT count(*)::int FROM logs) AS logs,
                (SELECT count(*)::int FROM stored_vitals_ids) = (SELECT count(*)::int FROM vitals_reports) AS vitals`,
      );
      assert.deepEqual(n, { events: true, logs: true, vitals: true });
      assert.equal((await persistOn(db, projectId, [eventId], new Date(FIRST.getTime() + 20 * DAY_MS))).inserted, 0);
    });
  });
}

/** Resolves once a backend other than the watcher's waits for a lock. */
async function waitingForLock(watcher: Client): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { rows } = await watcher.query(
      `SELECT 1 FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
    );
    if (rows.length > 0) return;
    if (Date.now() > deadline) throw new Error('the second worker never waited for the first');
    await new Promise((r) => setTimeout(r, 10));
  }
}
