/**
 * The Performance, Logs and User feedback reads on both engines: the same seeded rows must give
 * the same answers on PostgreSQL 15 and on embedded PGlite (which reports 18), so the SQL
 * (percentile_cont, date_bin, row comparisons, to_char cursors) is checked where it runs.
 * The figures themselves are checked against independent computations in api/test.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sessionCaller } from '../src/access';
import { openDatabase, type Database } from '../src/db';
import { persistFeedback, persistLogs, persistVitals } from '../src/events';
import { listFeedback } from '../src/feedback';
import { searchLogs } from '../src/logs';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '../src/testing';
import { resolveVitalsQuery, summarizeVitals, summarizeVitalsByUrl, vitalsSeries } from '../src/vitals';

const PROJECT = randomUUID();
/** A member of the project's organization: every read goes through its access check. */
const VIEWER = sessionCaller(randomUUID());
const T0 = Date.parse('2026-06-01T00:00:00.000Z');
const HOUR = 3_600_000;

async function seed(db: Database): Promise<void> {
  const org = randomUUID();
  await db.ds.query(`INSERT INTO organizations (id, name, slug, plan) VALUES ($1, 'O', 'o', 'free')`, [org]);
  await db.ds.query(`INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'P')`, [PROJECT, org]);
  await db.ds.query(`INSERT INTO users (id, email, password_hash) VALUES ($1, 'viewer@example.com', 'x')`, [
    VIEWER.userId,
  ]);
  await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
    org,
    VIEWER.userId,
  ]);
  let x = 7;
  const next = () => (x = (x * 48271) % 2147483647) / 2147483647;
  await db.ds.transaction(async (em) => {
    await persistVitals(
      em,
      Array.from({ length: 120 }, (_, i) => ({
        projectId: PROJECT,
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        url: ['/', '/a', '/b'][i % 3],
        lcp: Math.round(500 + next() * 5000),
        inp: i % 4 === 0 ? null : Math.round(20 + next() * 800),
        cls: Number((next() * 0.4).toFixed(3)),
        fcp: Math.round(300 + next() * 4000),
        ttfb: i % 5 === 0 ? null : Math.round(40 + next() * 2000),
        environment: i % 4 === 3 ? 'staging' : 'production',
        release: null,
        tags: {},
        receivedAt: new Date(T0 + Math.floor(next() * 30 * HOUR)),
      })),
    );
    await persistLogs(
      em,
      Array.from({ length: 40 }, (_, i) => ({
        projectId: PROJECT,
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        level: (['debug', 'info', 'warn', 'error'] as const)[i % 4],
        message: i % 2 ? `Timeout ${i}` : `ok ${i}`,
        context: null,
        environment: 'production',
        release: null,
        tags: {},
        timestamp: new Date(T0 + Math.floor(i / 2) * 1000),
        receivedAt: new Date(T0),
      })),
    );
    await persistFeedback(
      em,
      Array.from({ length: 12 }, (_, i) => ({
        projectId: PROJECT,
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        message: `f${i}`,
        email: null,
        eventId: null,
        receivedAt: new Date(T0 + Math.floor(i / 3) * 1000),
      })),
    );
  });
}

async function answers(db: Database): Promise<unknown> {
  const q = resolveVitalsQuery(PROJECT, {
    from: new Date(T0).toISOString(),
    to: new Date(T0 + 30 * HOUR).toISOString(),
  });
  const prod = resolveVitalsQuery(PROJECT, {
    ...q,
    from: q.range.from.toISOString(),
    to: q.range.to.toISOString(),
    environment: 'production',
  });
  const logPages = [];
  let after: string | null = null;
  do {
    const page = await searchLogs(db.ds, VIEWER, { projectId: PROJECT, text: 'timeout', first: 7, after });
    logPages.push(page);
    after = page.hasNextPage ? page.cursors.at(-1)! : null;
  } while (after);
  const fb1 = await listFeedback(db.ds, VIEWER, { projectId: PROJECT, first: 5 });
  const fb2 = await listFeedback(db.ds, VIEWER, { projectId: PROJECT, first: 10, after: fb1.cursors.at(-1) });
  return {
    summary: await summarizeVitals(db.ds, VIEWER, q),
    byUrl: await summarizeVitalsByUrl(db.ds, VIEWER, prod, 10),
    hourly: await vitalsSeries(db.ds, VIEWER, prod, 'hour'),
    daily: await vitalsSeries(db.ds, VIEWER, q, 'day'),
    logPages,
    feedback: [fb1, fb2],
  };
}

describe('read queries on PostgreSQL and PGlite', () => {
  let pg: TestPostgres;
  let dir: TempDir;
  let server: Database;
  let embedded: Database;
  before(async () => {
    pg = await createTestPostgres();
    dir = createTempDir();
    server = await openDatabase({ databaseUrl: pg.url, dataDir: 'unused' }, { migrate: true });
    embedded = await openDatabase({ databaseUrl: undefined, dataDir: dir.path }, { migrate: true });
    await seed(server);
    await seed(embedded);
  });
  after(async () => {
    await server.close();
    await embedded.close();
    await pg.drop();
    dir.remove();
  });

  test('vitals, logs and feedback answer the same on both engines', async () => {
    const a: any = await answers(server);
    const b: any = await answers(embedded);
    assert.deepEqual(b, a);
    // And the answers are not trivially empty.
    assert.equal(a.summary.pageViews, 120);
    assert.ok(a.summary.metrics.every((m: any) => m.count > 0 && m.p75 !== null));
    assert.equal(a.byUrl.length, 3);
    assert.equal(a.hourly.length, 30);
    assert.equal(a.logPages.flatMap((p: any) => p.logs).length, 20);
    assert.equal(a.feedback[0].feedback.length + a.feedback[1].feedback.length, 12);
  });
});
