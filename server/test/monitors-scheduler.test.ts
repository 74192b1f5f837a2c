/**
 * One monitor scheduler across workers (issue 33, decision 064): two worker processes (the real
 * `server/src/main.ts --roles worker`) share one PostgreSQL database full of cron monitors whose
 * check-in is overdue. One is killed with SIGKILL mid-way; the other finishes. Every monitor
 * must have exactly one `missed` check-in: none lost to the kill, none evaluated twice.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createProject, openDatabase, signUp, type Database } from '@tracker/core';
import { runCli } from '../src/cli';
import { startChildServer, type ChildServer } from './child-server';
import { childEnv, createTestEnv, waitFor, type TestEnv } from './helpers';

const MONITORS = 400;

let env: TestEnv;
let db: Database;
const children: ChildServer[] = [];

before(async () => {
  env = await createTestEnv('postgres+redis');
  assert.equal((await runCli(['migrate'], childEnv(env))).code, 0);
  db = await openDatabase(env.config, { migrate: false });
});
after(async () => {
  await Promise.all(children.map((c) => c.kill()));
  await db?.close();
  await env?.cleanup();
});

test('two workers, one killed with SIGKILL mid-pass: each overdue monitor is evaluated exactly once', async () => {
  const s = await signUp(
    db.ds,
    { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Ops' },
    'business',
  );
  const projectId = (await createProject(db.ds, s.user.id, s.organization.id, 'Jobs')).project.id;
  // Straight into the tables (the plan allows 100; the scheduler does not care): every monitor's
  // slot passed ten minutes ago with a one-minute margin, so all are due now.
  await db.ds.query(
    `WITH m AS (
       INSERT INTO monitors (project_id, kind, slug, name, interval_minutes, checkin_margin_minutes)
       SELECT $1, 'cron', 'job-' || g, 'job-' || g, 60, 1 FROM generate_series(1, $2) g RETURNING id)
     INSERT INTO monitor_environments (monitor_id, environment, expected_at, next_run_at)
     SELECT id, 'production', now() - interval '10 minutes', now() - interval '9 minutes' FROM m`,
    [projectId, MONITORS],
  );
  const start = () =>
    startChildServer(childEnv(env), 'worker', { startTimeoutMs: 400_000 }).then((c) => (children.push(c), c));
  const [a, b] = await Promise.all([start(), start()]);
  // Kill A once the pass is under way (some monitors evaluated, not all).
  await waitFor(
    'the pass under way',
    async () => {
      const [{ n }] = await db.ds.query(`SELECT count(*)::int AS n FROM monitor_check_ins WHERE status = 'missed'`);
      return n > 0;
    },
    600_000,
  ).catch((err) => {
    throw new Error(`${err.message}\nA: ${a.output().slice(-1500)}\nB: ${b.output().slice(-1500)}`);
  });
  await a.kill();
  assert.ok(b.proc.exitCode === null, 'B still runs');
  const done = await waitFor(
    'every monitor evaluated',
    async () => {
      const [r] = await db.ds.query(
        `SELECT count(*) FILTER (WHERE next_run_at <= now())::int AS due, count(*)::int AS n FROM monitor_environments`,
      );
      return r.due === 0 ? r : undefined;
    },
    600_000,
  );
  assert.equal(done.n, MONITORS);
  const counts = await db.ds.query(
    `SELECT m.slug, count(c.id)::int AS missed FROM monitors m
       LEFT JOIN monitor_check_ins c ON c.monitor_id = m.id AND c.status = 'missed'
      GROUP BY m.slug HAVING count(c.id) <> 1`,
  );
  assert.deepEqual(counts, [], 'monitors not evaluated exactly once');
  // Each opened its issue once (tolerance 1).
  const [{ issues }] = await db.ds.query(`SELECT count(*)::int AS issues FROM issues WHERE project_id = $1`, [
    projectId,
  ]);
  assert.equal(issues, MONITORS);
});
