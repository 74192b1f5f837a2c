/**
 * Sessions in release health (issue 30, decision 045): Sentry `session` and `sessions` items
 * mapped at the edge, counted by the worker's persist step, read by release health. The
 * payloads are the ones @sentry/node 11.12 sent in server/test (sentry-node-sender.cjs,
 * scenario sessions); both runtimes, since the counters and states are stored.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { signUp } from '../src/accounts';
import { openDatabase, type Database } from '../src/db';
import { AppError } from '../src/errors';
import { createProject } from '../src/projects';
import { findReleaseHealth, registerRelease } from '../src/releases';
import {
  mapSentrySession,
  MAX_AGGREGATE_BUCKETS,
  persistSessions,
  purgeSessionStates,
  sessionUserHash,
  type PreparedSession,
} from '../src/sessions';
import { createTempDir, createTestPostgres, type TestPostgres } from '../src/testing';

const bad = (pattern: RegExp) => (err: unknown) =>
  err instanceof AppError && err.code === 'BAD_USER_INPUT' && pattern.test(err.message);

/** One update as @sentry/node 11 writes it. */
function update(sid: string, init: boolean, status: string, errors: number, did: string, release: string) {
  return {
    sid,
    init,
    started: '2026-11-27T20:11:47.385Z',
    timestamp: '2026-11-27T20:11:47.395Z',
    status,
    errors,
    did,
    duration: 0.01,
    attrs: { release, environment: 'sdk-test' },
  };
}

/** The issue's case, in the order the SDK sent it: 5 sessions of 4 users; the crash is sent twice. */
function issueCase(release: string): unknown[] {
  const [a, b, c, d, e] = Array.from({ length: 5 }, () => randomUUID().replaceAll('-', ''));
  return [
    update(a, true, 'exited', 0, 'ada', release),
    update(b, true, 'exited', 0, 'bob', release),
    update(c, true, 'exited', 0, 'cy', release),
    update(d, true, 'ok', 1, 'ada', release),
    update(d, false, 'exited', 1, 'ada', release),
    update(e, true, 'crashed', 1, 'dee', release),
    update(e, false, 'crashed', 1, 'dee', release),
  ];
}

describe('Sentry session items as session jobs', () => {
  test('an update keeps what release health counts; the did leaves only as a hash', () => {
    const body = mapSentrySession(
      update('C51C636D-81AC-4F58-AD8F-E5BAB8BE69BE', true, 'crashed', 1, 'dee', 'r@1'),
      'session',
    );
    assert.deepEqual(body, {
      kind: 'update',
      sid: 'c51c636d81ac4f58ad8fe5bab8be69be',
      init: true,
      status: 'crashed',
      errors: 1,
      userHash: sessionUserHash('dee'),
      release: 'r@1',
      environment: 'sdk-test',
    });
    assert.ok(!JSON.stringify(body).includes('"dee"'));
  });

  test('an aggregate sums its buckets, per user when they carry a did', () => {
    const body = mapSentrySession(
      {
        aggregates: [
          { started: '2026-11-27T20:12:00.000Z', exited: 3, errored: 1, crashed: 0 },
          { started: '2026-11-27T20:13:00.000Z', exited: 2, crashed: 1 },
          { started: '2026-11-27T20:13:00.000Z', did: 'u1', exited: 1, abnormal: 1 },
        ],
        attrs: { release: 'r@1' },
      },
      'sessions',
    );
    assert.deepEqual(body, {
      kind: 'aggregate',
      release: 'r@1',
      environment: 'production',
      buckets: [
        { exited: 5, errored: 1, crashed: 1, abnormal: 0 },
        { userHash: sessionUserHash('u1'), exited: 1, errored: 0, crashed: 0, abnormal: 1 },
      ],
    });
  });

  test('garbage is refused with a message naming what is wrong', () => {
    const cases: Array<[unknown, 'session' | 'sessions', RegExp]> = [
      ['text', 'session', /JSON object/],
      [{ sid: 'x', attrs: { release: 'r' } }, 'session', /sid must be a UUID/],
      [{ sid: randomUUID(), attrs: {} }, 'session', /attrs.release is required/],
      [{ sid: randomUUID(), status: 'exploded', attrs: { release: 'r' } }, 'session', /status must be one of/],
      [{ sid: randomUUID(), errors: -1, attrs: { release: 'r' } }, 'session', /errors must be a whole number/],
      [{ sid: randomUUID(), init: 'yes', attrs: { release: 'r' } }, 'session', /init must be true or false/],
      [{ aggregates: [], attrs: { release: 'r' } }, 'sessions', /non-empty array/],
      [{ aggregates: [{ exited: 1.5 }], attrs: { release: 'r' } }, 'sessions', /aggregates\[0\]\.exited/],
      [{ aggregates: [{ crashed: 1e12 }], attrs: { release: 'r' } }, 'sessions', /aggregates\[0\]\.crashed/],
      [
        {
          aggregates: Array.from({ length: MAX_AGGREGATE_BUCKETS + 1 }, () => ({ exited: 1 })),
          attrs: { release: 'r' },
        },
        'sessions',
        /more than 1000 entries/,
      ],
    ];
    for (const [payload, type, message] of cases) assert.throws(() => mapSentrySession(payload, type), bad(message));
  });
});

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`sessions counted per release and environment (${kind})`, () => {
    let pg: TestPostgres | undefined;
    const dir = createTempDir();
    let db: Database;
    let projectId: string;

    before(async () => {
      if (kind === 'postgres') {
        pg = await createTestPostgres();
        db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
      } else {
        db = await openDatabase({ databaseUrl: undefined, dataDir: dir.path }, { migrate: true });
      }
      const s = await signUp(
        db.ds,
        { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Org' },
        'pro',
      );
      projectId = (await createProject(db.ds, s.user.id, s.organization.id, 'p')).project.id;
    });
    after(async () => {
      await db.close();
      await pg?.drop();
      dir.remove();
    });

    const prepared = (payloads: unknown[], type: 'session' | 'sessions' = 'session'): PreparedSession[] =>
      payloads.map((p) => ({ ...mapSentrySession(p, type), projectId }));
    const persist = (batch: PreparedSession[]) => db.ds.transaction((em) => persistSessions(em, batch));
    const healthOf = async (version: string) => {
      const release = await registerRelease(db.ds, { projectId, version, environment: 'sdk-test' });
      return (await findReleaseHealth(db.ds, [release.id], new Date())).get(release.id)!;
    };

    test("the issue's case: each session once by its final state, crash-free 4/5 sessions and 3/4 users", async () => {
      const result = await persist(prepared(issueCase('shop@1')));
      assert.deepEqual(result, { started: 5, ended: 5, ignored: 1, statements: 5 });
      const health = await healthOf('shop@1');
      assert.equal(health.basis, 'sessions');
      assert.deepEqual(health.sessions, { started: 5, exited: 3, errored: 1, crashed: 1, abnormal: 0 });
      assert.equal(health.crashFreeSessions, 4 / 5);
      assert.equal(health.usersSeen, 4);
      assert.equal(health.crashedUsers, 1);
      assert.equal(health.crashFreeUsers, 3 / 4);
    });

    test('one job per batch or one per update count the same; a redelivered update changes nothing', async () => {
      const payloads = issueCase('shop@2');
      for (const p of payloads) await persist(prepared([p]));
      const again = await persist(prepared(payloads));
      assert.deepEqual(again, { started: 0, ended: 0, ignored: 7, statements: 2 });
      const health = await healthOf('shop@2');
      assert.deepEqual(health.sessions, { started: 5, exited: 3, errored: 1, crashed: 1, abnormal: 0 });
      assert.equal(health.crashFreeUsers, 3 / 4);
    });

    test("a crash sent without the did its init carried is still that user's", async () => {
      const sid = randomUUID();
      const { did: _, ...crash } = update(sid, false, 'crashed', 1, '', 'shop@6');
      await persist(prepared([update(sid, true, 'ok', 0, 'fay', 'shop@6')]));
      await persist(prepared([crash]));
      const health = await healthOf('shop@6');
      assert.deepEqual(health.sessions, { started: 1, exited: 0, errored: 0, crashed: 1, abnormal: 0 });
      assert.equal(health.usersSeen, 1);
      assert.equal(health.crashedUsers, 1);
      assert.equal(health.crashFreeUsers, 0);
    });

    test('an update of a session whose init was never seen is ignored', async () => {
      const sid = randomUUID();
      const result = await persist(prepared([update(sid, false, 'crashed', 1, 'eve', 'shop@3')]));
      assert.deepEqual(result, { started: 0, ended: 0, ignored: 1, statements: 1 });
      const health = await healthOf('shop@3');
      assert.equal(health.basis, 'events');
      assert.equal(health.sessions, null);
      assert.equal(health.crashFreeSessions, null);
    });

    test('states older than five days are purged; a late update of such a session is then ignored', async () => {
      const sid = randomUUID();
      await persist(prepared([update(sid, true, 'ok', 0, 'late', 'shop@5')]));
      const count = async () =>
        (
          await db.ds.query(`SELECT count(*)::int AS n FROM session_states WHERE sid = $1`, [sid.replaceAll('-', '')])
        )[0].n;
      assert.equal(await purgeSessionStates(db.ds, new Date(Date.now() + 4 * 86_400_000)), 0);
      assert.equal(await count(), 1);
      assert.ok((await purgeSessionStates(db.ds, new Date(Date.now() + 6 * 86_400_000), 2)) >= 1);
      assert.equal(await count(), 0);
      const late = await persist(prepared([update(sid, false, 'crashed', 0, 'late', 'shop@5')]));
      assert.deepEqual(late, { started: 0, ended: 0, ignored: 1, statements: 1 });
      assert.deepEqual((await healthOf('shop@5')).sessions, {
        started: 1,
        exited: 0,
        errored: 0,
        crashed: 0,
        abnormal: 0,
      });
    });

    test('a 10,000-session aggregate is two statements, and counted exactly', async () => {
      const aggregates = Array.from({ length: 100 }, (_, i) => ({
        started: '2026-11-27T20:12:00.000Z',
        ...(i < 10 ? { did: `user-${i}` } : {}),
        exited: 96,
        errored: 2,
        crashed: i < 10 ? 2 : 1,
        abnormal: i < 10 ? 0 : 1,
      }));
      const result = await persist(
        prepared([{ aggregates, attrs: { release: 'shop@4', environment: 'sdk-test' } }], 'sessions'),
      );
      assert.deepEqual(result, { started: 10_000, ended: 10_000, ignored: 0, statements: 2 });
      const health = await healthOf('shop@4');
      assert.deepEqual(health.sessions, { started: 10_000, exited: 9_600, errored: 200, crashed: 110, abnormal: 90 });
      assert.equal(health.crashFreeSessions, 1 - 200 / 10_000);
      assert.equal(health.usersSeen, 10);
      assert.equal(health.crashFreeUsers, 0);
      const [{ n }] = await db.ds.query(
        `SELECT count(*)::int AS n FROM session_states WHERE project_id = $1 AND release = 'shop@4'`,
        [projectId],
      );
      assert.equal(n, 0, 'aggregates keep no per-session state');
    });
  });
}
