/**
 * Cron monitors' failure rules with a held clock (issue 33): crontab in Europe/Berlin across the
 * DST change, margin, max runtime, tolerance, recovery, pause, and a monitor created mid-period.
 * Check-ins go through persistCheckIns (the worker's step) and detection through
 * evaluateCronMonitors (the scheduler's pass), each at the time the test says.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { loadConfig } from '../src/config';
import { signUp } from '../src/accounts';
import { sessionCaller } from '../src/access';
import { openDatabase, type Database } from '../src/db';
import { createProject } from '../src/projects';
import {
  createMonitor,
  evaluateCronMonitors,
  nextSlotAfter,
  pauseMonitor,
  persistCheckIns,
  type MonitorInput,
} from '../src/monitors';
import { createTempDir, createTestPostgres, type TestPostgres } from '../src/testing';

const iso = (s: string) => new Date(s);

test('a crontab in Europe/Berlin follows the clocks across both DST changes', () => {
  const nightly = { type: 'crontab' as const, crontab: '0 2 * * *', timezone: 'Europe/Berlin' };
  // Winter: 02:00 CET is 01:00 UTC; summer: 02:00 CEST is 00:00 UTC.
  assert.equal(
    new Date(nextSlotAfter(nightly, iso('2026-03-27T12:00:00Z').getTime())).toISOString(),
    '2026-03-28T01:00:00.000Z',
  );
  // 29 March 2026: 02:00 does not exist in Berlin; the run moves to the next hour that does (03:00 CEST).
  assert.equal(
    new Date(nextSlotAfter(nightly, iso('2026-03-28T12:00:00Z').getTime())).toISOString(),
    '2026-03-29T01:00:00.000Z',
  );
  assert.equal(
    new Date(nextSlotAfter(nightly, iso('2026-03-29T12:00:00Z').getTime())).toISOString(),
    '2026-03-30T00:00:00.000Z',
  );
  // 25 October 2026: back to CET.
  assert.equal(
    new Date(nextSlotAfter(nightly, iso('2026-10-25T12:00:00Z').getTime())).toISOString(),
    '2026-10-26T01:00:00.000Z',
  );
});

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`cron monitor detection with a held clock (${kind})`, () => {
    let pg: TestPostgres | undefined;
    const dir = createTempDir();
    let db: Database;
    let projectId: string;
    let userId: string;

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      db = await openDatabase(loadConfig({ TRACKER_DATA_DIR: dir.path, ...(pg ? { DATABASE_URL: pg.url } : {}) }), {
        migrate: true,
      });
      const s = await signUp(
        db.ds,
        { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'M' },
        'business',
      );
      userId = s.user.id;
      projectId = (await createProject(db.ds, userId, s.organization.id, 'Jobs')).project.id;
    });
    after(async () => {
      await db?.close();
      await pg?.drop();
      dir.remove();
    });

    // Each test starts with no monitors: a pass evaluates every due monitor of the database.
    beforeEach(() => db.ds.query('DELETE FROM monitors'));
    const create = (slug: string, input: Omit<MonitorInput, 'slug'>, at: string) =>
      createMonitor(
        db.ds,
        sessionCaller(userId),
        { projectId, kind: 'cron', settings: { slug, ...input } },
        {
          allowPrivateTargets: false,
          now: iso(at),
        },
      );
    const checkIn = (slug: string, status: 'in_progress' | 'ok' | 'error', at: string, id = randomUUID()) =>
      db.ds
        .transaction((em) =>
          persistCheckIns(em, [{ id, slug, status, environment: 'production', projectId, receivedAt: iso(at) }], {
            now: iso(at).getTime(),
            publicUrl: 'http://tracker.test',
          }),
        )
        .then(() => id);
    const evaluate = (at: string) =>
      evaluateCronMonitors(db.ds, { now: iso(at).getTime(), publicUrl: 'http://tracker.test' });
    const stateOf = async (slug: string) => {
      const [row] = await db.ds.query(
        `SELECT e.status, e.consecutive_failures, e.issue_id, i.status AS issue_status, i.title
           FROM monitor_environments e JOIN monitors m ON m.id = e.monitor_id
           LEFT JOIN issues i ON i.id = e.issue_id WHERE m.slug = $1 AND m.project_id = $2`,
        [slug, projectId],
      );
      return row;
    };
    const checkIns = async (slug: string) =>
      (
        await db.ds.query(
          `SELECT c.status FROM monitor_check_ins c JOIN monitors m ON m.id = c.monitor_id
            WHERE m.slug = $1 AND m.project_id = $2 ORDER BY c.created_at, c.id`,
          [slug, projectId],
        )
      ).map((r: { status: string }) => r.status);
    const activity = async (issueId: string) =>
      (await db.ds.query(`SELECT kind, message FROM issue_activity WHERE issue_id = $1 ORDER BY created_at, id`, [
        issueId,
      ])) as Array<{
        kind: string;
        message: string;
      }>;

    test('misses the Berlin 02:00 slot on the night the clocks skip it, only after the margin, and titles the issue so', async () => {
      await create(
        'nightly-backup',
        { crontab: '0 2 * * *', timezone: 'Europe/Berlin', checkinMarginMinutes: 5 },
        '2026-03-27T12:00:00Z',
      );
      // 28 March, 02:00 CET = 01:00 UTC: on time.
      await checkIn('nightly-backup', 'ok', '2026-03-28T01:00:20Z');
      // The DST night: the run is expected at 03:00 CEST = 01:00 UTC, and is late past the margin only at 01:05.
      assert.equal((await evaluate('2026-03-29T01:04:00Z')).missed, 0);
      assert.equal((await stateOf('nightly-backup')).status, 'ok');
      const pass = await evaluate('2026-03-29T01:05:30Z');
      assert.equal(pass.missed, 1);
      const s = await stateOf('nightly-backup');
      assert.equal(s.status, 'failing');
      assert.equal(s.issue_status, 'open');
      assert.equal(s.title, 'Monitor nightly-backup missed its 03:00 check-in');
      // Evaluated once: a second pass at the same time finds nothing due.
      assert.equal((await evaluate('2026-03-29T01:05:30Z')).evaluated, 0);
      // Summer time: 02:00 CEST = 00:00 UTC the next night; an ok there resolves it (recovery 1).
      await checkIn('nightly-backup', 'ok', '2026-03-30T00:00:10Z');
      const r = await stateOf('nightly-backup');
      assert.equal(r.status, 'ok');
      assert.equal(r.issue_status, 'resolved');
      const rows = await activity(s.issue_id);
      assert.deepEqual(
        rows.map((a) => a.kind),
        ['FIRST_SEEN', 'RESOLVED'],
      );
      assert.match(rows[0].message, /missed its 03:00 check-in \(production\): nothing came within 5 minute/);
      assert.match(rows[1].message, /checked in ok/);
      assert.deepEqual(await checkIns('nightly-backup'), ['ok', 'missed', 'ok']);
    });

    test('times out a run in progress past its maximum runtime', async () => {
      await create(
        'etl',
        { intervalMinutes: 60, maxRuntimeMinutes: 10, checkinMarginMinutes: 5 },
        '2026-05-01T00:00:00Z',
      );
      await checkIn('etl', 'in_progress', '2026-05-01T01:00:00Z');
      assert.equal((await evaluate('2026-05-01T01:09:00Z')).timedOut, 0);
      const pass = await evaluate('2026-05-01T01:10:30Z');
      assert.equal(pass.timedOut, 1);
      assert.deepEqual(await checkIns('etl'), ['timeout']);
      const s = await stateOf('etl');
      assert.equal(s.status, 'failing');
      assert.match(s.title, /Monitor etl timed out: its 01:00 run passed 10 minutes/);
    });

    test('opens the issue only at the failure tolerance and resolves it only at the recovery threshold; an error check-in counts', async () => {
      await create(
        'report',
        { intervalMinutes: 10, failureTolerance: 3, recoveryThreshold: 2 },
        '2026-06-01T00:00:00Z',
      );
      await checkIn('report', 'error', '2026-06-01T00:10:00Z');
      await checkIn('report', 'error', '2026-06-01T00:20:00Z');
      assert.equal((await stateOf('report')).issue_id, null, 'two failures of three: no issue yet');
      await checkIn('report', 'error', '2026-06-01T00:30:00Z');
      const s = await stateOf('report');
      assert.equal(s.status, 'failing');
      assert.equal(s.issue_status, 'open');
      assert.match(s.title, /Monitor report failed its/);
      await checkIn('report', 'ok', '2026-06-01T00:40:00Z');
      assert.equal((await stateOf('report')).issue_status, 'open', 'one success of two: still open');
      await checkIn('report', 'ok', '2026-06-01T00:50:00Z');
      assert.equal((await stateOf('report')).issue_status, 'resolved');
      // A new failure run reopens it as a regression, and the activity says why.
      for (const m of ['01:00', '01:10', '01:20']) await checkIn('report', 'error', `2026-06-01T${m}:00Z`);
      const again = await stateOf('report');
      assert.equal(again.issue_id, s.issue_id);
      assert.equal(again.issue_status, 'open');
      assert.deepEqual(
        (await activity(s.issue_id)).map((a) => a.kind),
        ['FIRST_SEEN', 'RESOLVED', 'REGRESSED'],
      );
    });

    test('a paused monitor makes no failures, and resuming does not count the paused time', async () => {
      const m = await create('paused-job', { intervalMinutes: 5 }, '2026-07-01T00:00:00Z');
      await checkIn('paused-job', 'ok', '2026-07-01T00:05:00Z');
      await pauseMonitor(
        db.ds,
        sessionCaller(userId),
        { id: m.id, paused: true },
        { now: iso('2026-07-01T00:06:00Z') },
      );
      assert.equal((await evaluate('2026-07-01T03:00:00Z')).missed, 0);
      await pauseMonitor(
        db.ds,
        sessionCaller(userId),
        { id: m.id, paused: false },
        { now: iso('2026-07-01T03:00:00Z') },
      );
      // The first pass after resuming sets the next slot from now (03:05); nothing is missed for the pause.
      assert.equal((await evaluate('2026-07-01T03:00:30Z')).missed, 0);
      assert.equal((await evaluate('2026-07-01T03:05:30Z')).missed, 0, 'within the 1-minute margin');
      assert.equal((await evaluate('2026-07-01T03:06:30Z')).missed, 1);
      assert.deepEqual(await checkIns('paused-job'), ['ok', 'missed']);
    });

    test('a monitor created mid-period does not fail for the period before it existed', async () => {
      // Created at 02:30 for a 02:00 job: nothing is expected until tomorrow's slot.
      await create('late-created', { crontab: '0 2 * * *', timezone: 'UTC' }, '2026-08-01T02:30:00Z');
      await checkIn('late-created', 'in_progress', '2026-08-01T02:31:00Z');
      await checkIn('late-created', 'ok', '2026-08-01T02:32:00Z');
      assert.equal((await evaluate('2026-08-01T23:00:00Z')).missed, 0);
      assert.equal((await evaluate('2026-08-02T02:01:30Z')).missed, 1);
    });
  });
}
