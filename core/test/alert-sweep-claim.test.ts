import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  createAlertRule,
  createProject,
  openDatabase,
  purgeExpired,
  sessionCaller,
  signUp,
  takeDueAlertDeliveries,
  type Database,
} from '../src';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '../src/testing';

/**
 * Issue 28's claim bug in the alert sweeper: `IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)`
 * planned as a semi join re-run per row after an ANALYZE that saw `alert_deliveries` empty took
 * every due delivery, not `limit`, in time quadratic in their number (decision 035).
 */
const DUE = 2_000;
const LIMIT = 100;

for (const runtime of ['embedded PGlite', 'PostgreSQL'] as const) {
  describe(`alert sweeper after an ANALYZE of an empty outbox (${runtime})`, () => {
    let db: Database;
    let dir: TempDir | undefined;
    let pg: TestPostgres | undefined;

    before(async () => {
      if (runtime === 'PostgreSQL') {
        pg = await createTestPostgres();
        db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
      } else {
        dir = createTempDir('tracker-sweep-test-');
        db = await openDatabase({ databaseUrl: undefined, dataDir: dir.path }, { migrate: true });
      }
      const s = await signUp(
        db.ds,
        { email: `s-${randomUUID()}@example.com`, password: 'long enough pw', organizationName: 'Sweep' },
        'business',
      );
      const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'Web');
      const rule = await createAlertRule(db.ds, sessionCaller(s.user.id), {
        projectId: project.id,
        kind: 'NEW_ISSUE',
        channel: { type: 'WEBHOOK', url: 'http://127.0.0.1:9/hook' },
        allowPrivateTargets: true,
      } as Parameters<typeof createAlertRule>[2]);
      const insert = (n: number) =>
        db.ds.query(
          `INSERT INTO alert_deliveries (rule_id, project_id, kind, payload)
           SELECT $1, $2, 'NEW_ISSUE', '{}'::jsonb FROM generate_series(1, $3::int)`,
          [rule.id, project.id, n],
        );
      // Deliveries come and go (pages stay), then statistics are taken while the table is empty.
      await insert(300);
      await db.ds.query('DELETE FROM alert_deliveries');
      if (runtime === 'embedded PGlite') await purgeExpired(db.ds);
      else await db.ds.query('ANALYZE alert_deliveries');
      await insert(DUE);
    });

    after(async () => {
      await db?.close();
      await pg?.drop();
      dir?.remove();
    });

    test(`each sweep takes at most its limit of ${LIMIT}`, async () => {
      let slowest = 0;
      for (let round = 0; round < 3; round++) {
        const started = performance.now();
        const ids = await takeDueAlertDeliveries(db.ds, 60_000, Date.now(), LIMIT);
        slowest = Math.max(slowest, performance.now() - started);
        assert.equal(ids.length, LIMIT, `round ${round}: took ${ids.length} of ${LIMIT}`);
      }
      const [{ n }] = await db.ds.query('SELECT count(*)::int AS n FROM alert_deliveries WHERE enqueued_at IS NOT NULL');
      assert.equal(n, 3 * LIMIT);
      assert.ok(slowest < 1_000, `slowest sweep ${Math.round(slowest)} ms`);
    });
  });
}
