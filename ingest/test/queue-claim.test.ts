import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, purgeExpired, type Database } from '@tracker/core';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '@tracker/core/testing';
import { DatabaseQueue } from '../src/queue';
import { CLAIM_SQL } from '../src/queue/database-queue';

/**
 * Issue 28: after an ANALYZE that saw the queue table empty (but with pages: rows came and
 * went), the planner made the claim's `IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)` the inner
 * side of a nested-loop semi join, ran it once per row, and one claim took the whole backlog
 * (and took seconds, on PGlite with the event loop held). The claim must take at most its batch
 * whatever the statistics say, on both databases the database queue runs on.
 */
const BACKLOG = 5_000;
const BATCH = 10;

for (const runtime of ['embedded PGlite', 'PostgreSQL'] as const) {
  describe(`database queue claim after an ANALYZE of an empty queue table (${runtime})`, () => {
    let db: Database;
    let queue: DatabaseQueue;
    let dir: TempDir | undefined;
    let pg: TestPostgres | undefined;

    before(async () => {
      if (runtime === 'PostgreSQL') {
        pg = await createTestPostgres();
        db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
      } else {
        dir = createTempDir('tracker-claim-test-');
        db = await openDatabase({ databaseUrl: undefined, dataDir: dir.path }, { migrate: true });
      }
      queue = await DatabaseQueue.open(db.ds, { pollMs: 20, visibilityMs: 60_000 });
      // Rows come and go (pages stay), then statistics are taken while the table is empty.
      await queue.enqueue(Array.from({ length: 300 }, (_, i) => JSON.stringify({ warmup: i })));
      await db.ds.query('DELETE FROM queue_jobs');
      if (runtime === 'embedded PGlite') {
        // The embedded server's own hourly purge, whose ANALYZE is the one issue 28 caught.
        const purged = await purgeExpired(db.ds);
        assert.notEqual(purged.analyzeMs, null, 'the embedded purge ends with an ANALYZE');
      } else {
        await db.ds.query('ANALYZE queue_jobs'); // what autovacuum does on PostgreSQL
      }
      const [stats] = await db.ds.query(
        `SELECT relpages::int AS pages, reltuples::int AS tuples FROM pg_class WHERE relname = 'queue_jobs'`,
      );
      assert.equal(stats.tuples, 0, 'the statistics say the table is empty');
      assert.ok(stats.pages > 0, `the table has pages (${stats.pages})`);
      // Then one hostile envelope's worth of jobs arrives.
      await queue.enqueue(Array.from({ length: BACKLOG }, (_, i) => JSON.stringify({ n: i })));
    });

    after(async () => {
      await queue?.close();
      await db?.close();
      await pg?.drop();
      dir?.remove();
    });

    test(`each claim takes at most its batch of ${BATCH}, quickly, and the backlog drains in order`, async () => {
      const locked = async () =>
        (await db.ds.query('SELECT count(*)::int AS n FROM queue_jobs WHERE locked_until IS NOT NULL'))[0].n as number;
      let slowest = 0;
      const seen: number[] = [];
      for (let round = 0; round < 5; round++) {
        const started = performance.now();
        const got = await queue.receive(BATCH, 0);
        slowest = Math.max(slowest, performance.now() - started);
        assert.equal(got.length, BATCH, `round ${round}: claimed ${got.length} of ${BATCH} asked`);
        assert.equal(await locked(), BATCH, `round ${round}: rows locked by the claim`);
        seen.push(...got.map((m) => JSON.parse(m.payload).n as number));
        await queue.ack(got);
      }
      assert.deepEqual(
        seen,
        Array.from({ length: seen.length }, (_, i) => i),
      );
      // On the old statement one claim took seconds (O(rows²) on PGlite); an index lookup takes ms.
      assert.ok(slowest < 1_000, `slowest claim ${Math.round(slowest)} ms`);
    });

    test('the plan runs the picking once: no semi join re-running the LIMIT per row', async () => {
      const claimPlan = (
        await db.ds.query(`EXPLAIN ${CLAIM_SQL.replace('$1', `'jobs'`).replace('$2', '10').replace('$3', '60000')}`)
      )
        .map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN'])
        .join('\n');
      assert.doesNotMatch(claimPlan, /Semi Join/, claimPlan);
      assert.match(claimPlan, /CTE picked/, claimPlan);
    });
  });
}
