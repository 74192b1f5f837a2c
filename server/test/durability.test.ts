import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { createClient } from 'redis';
import { runCli } from '../src/cli';
import { startChildServer } from './child-server';
import { childEnv, chromeStack, createTestEnv, gqlOk, ISSUES_QUERY, MODES, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

async function totals(url: string, token: string, projectId: string) {
  const issues = (await gqlOk(url, ISSUES_QUERY, { p: projectId, first: 100 }, token)).issues;
  return {
    issues: issues.totalCount as number,
    events: issues.nodes.reduce((n: number, i: any) => n + i.eventCount, 0) as number,
    users: issues.nodes.reduce((n: number, i: any) => n + i.userCount, 0) as number,
  };
}

for (const mode of MODES) {
  describe(`accepted events survive a crash before processing (${mode})`, () => {
    const envs: TestEnv[] = [];
    after(async () => {
      for (const e of envs) await e.cleanup();
    });

    test('events answered 202 by a process killed with SIGKILL are all processed after a restart', async () => {
      const env = await createTestEnv(mode);
      envs.push(env);
      // A process with a subset of roles expects a migrated database (like production).
      assert.equal((await runCli(['migrate'], childEnv(env))).code, 0);
      // Sign up with a process that has no worker, so nothing is processed before the kill.
      const edge = await startChildServer(childEnv(env), 'ingest,api');
      let a;
      try {
        a = await signUpWithProject(edge.url);
        for (let i = 0; i < 60; i++) {
          const r = await sendError(edge.url, a.key, {
            type: i % 2 ? 'TypeError' : 'RangeError',
            message: `boom ${i}`,
            environment: 'production',
            stack: chromeStack(i % 2 ? 'a' : 'b', 1),
            user: { id: `u${i % 7}` },
          });
          assert.equal(r.status, 202);
        }
      } finally {
        await edge.kill();
      }
      const tracker = await startTracker(env);
      try {
        const t = await waitFor('all 60 processed', async () => {
          const t = await totals(tracker.url, a.token, a.project.id);
          return t.events === 60 && t;
        });
        // Odd and even i each meet all seven residues of i % 7: 7 users per issue.
        assert.deepEqual(t, { issues: 2, events: 60, users: 14 });
        assert.equal(await tracker.queue.depth(), 0);
      } finally {
        await tracker.close();
      }
    });
  });
}

describe('a worker killed mid-batch loses nothing and double-counts nothing (postgres+redis)', () => {
  let env: TestEnv;
  after(async () => {
    await env?.cleanup();
  });

  test('SIGKILL while a worker drains the stream, then another worker finishes: exact counts', async () => {
    env = await createTestEnv('postgres+redis');
    const edge = await startTracker(env, { roles: ['ingest', 'api'] });
    const a = await signUpWithProject(edge.url);
    const TOTAL = 4000;
    const ISSUES = 20;
    const expectedUsers = new Map<number, Set<string>>();
    const sends = [];
    for (let i = 0; i < TOTAL; i++) {
      const g = i % ISSUES;
      const user = `user-${(i * 7) % 53}`;
      if (!expectedUsers.has(g)) expectedUsers.set(g, new Set());
      expectedUsers.get(g)!.add(user);
      sends.push({ eventId: randomUUID(), type: `Error${g}`, message: 'm', environment: 'production', user: { id: user } });
    }
    for (let i = 0; i < sends.length; i += 200) {
      const batch = await Promise.all(sends.slice(i, i + 200).map((s) => sendError(edge.url, a.key, s)));
      assert.ok(batch.every((r) => r.status === 202));
    }
    assert.equal(await edge.queue.depth(), TOTAL);

    const worker = await startChildServer({ ...childEnv(env), TRACKER_WORKER_BATCH_SIZE: '100' }, 'worker');
    // Kill it while it is part-way through: some batches committed, one probably in flight.
    await waitFor('the worker to commit some batches', async () => {
      const [{ n }] = await edge.db.ds.query('SELECT count(*)::int AS n FROM events');
      return n > 0;
    }, 30_000);
    await worker.kill();
    const [{ n: atKill }] = await edge.db.ds.query('SELECT count(*)::int AS n FROM events');
    assert.ok(atKill < TOTAL, `killed too late (${atKill} of ${TOTAL} already done); the test needs a mid-run kill`);
    // Entries delivered to the dead worker and never acked: it died holding a batch.
    const redis = createClient({ url: env.config.redisUrl });
    await redis.connect();
    const pending = await redis.xPending(`${env.config.redisPrefix}:jobs`, 'workers');
    await redis.close();
    assert.ok(pending.pending > 0, 'the worker died between batches; expected it to hold one');

    // A new worker: it reads new entries and reclaims the dead worker's pending ones.
    const rescuer = await startTracker(env, { roles: ['worker'] });
    try {
      await waitFor('everything processed', async () => (await rescuer.queue.depth()) === 0 && (await edge.db.ds.query('SELECT count(*)::int AS n FROM events'))[0].n === TOTAL, 60_000);
      const t = await totals(edge.url, a.token, a.project.id);
      const users = [...expectedUsers.values()].reduce((n, s) => n + s.size, 0);
      assert.deepEqual(t, { issues: ISSUES, events: TOTAL, users });
    } finally {
      await rescuer.close();
      await edge.close();
    }
  });
});
