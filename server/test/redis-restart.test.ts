import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { startPrivateRedis, type PrivateRedis } from '@tracker/core/testing';
import type { Tracker } from '../src';
import { createTestEnv, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

/**
 * Issue 28 §3: Redis killed with SIGKILL and started again, under Tracker. A `redis-server` of
 * the test's own, without persistence (the worker must make its consumer group again and store
 * what is accepted after the restart, without being restarted itself) and with it (appendonly
 * yes, appendfsync always: nothing accepted is lost across the kill, a backlog included).
 */

const event = () => ({ eventId: randomUUID(), type: 'TypeError', message: 'redis restart', environment: 'production' });

async function storedIds(tracker: Tracker, projectId: string): Promise<Set<string>> {
  const rows: Array<{ event_id: string }> = await tracker.db.ds.query(
    'SELECT event_id FROM events WHERE project_id = $1',
    [projectId],
  );
  return new Set(rows.map((r) => r.event_id));
}

async function metric(url: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

async function readyz(url: string) {
  const res = await fetch(`${url}/readyz`);
  return {
    status: res.status,
    body: (await res.json()) as {
      redis?: {
        restarts: number;
        persistence: { appendonly: string; survivesRestart: boolean | string };
      };
    },
  };
}

/**
 * Sends events in rounds of 10 until `stop` is set; 202s are recorded, anything else must be a
 * 503 with Retry-After (the seconds Redis is down).
 */
function keepSending(url: string, key: string) {
  const accepted: string[] = [];
  let refused = 0;
  let sending = true;
  const done = (async () => {
    while (sending) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const e = event();
          const r = await sendError(url, key, e);
          return { id: e.eventId, status: r.status, retryAfter: r.headers.get('retry-after') };
        }),
      );
      for (const a of answers) {
        if (a.status === 202) accepted.push(a.id);
        else {
          assert.ok(a.status === 503 && Number(a.retryAfter) >= 1, `unexpected answer ${a.status}`);
          refused += 1;
        }
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    accepted,
    get refused() {
      return refused;
    },
    async stop() {
      sending = false;
      await done;
    },
  };
}

describe('Redis killed (SIGKILL) and started again without persistence (postgres+redis)', () => {
  let redis: PrivateRedis;
  let env: TestEnv;
  let tracker: Tracker | undefined;
  after(async () => {
    await tracker?.close();
    await env?.cleanup();
    await redis?.close();
  });

  test('the worker recovers without a restart and stores every event accepted after the restart; the restart is counted', async () => {
    redis = await startPrivateRedis();
    env = await createTestEnv('postgres+redis', { redisUrl: redis.url });
    tracker = await startTracker(env, {}, { redisWatchIntervalMs: 200 });
    const ready = await readyz(tracker.url);
    assert.equal(ready.status, 200);
    assert.equal(ready.body.redis?.persistence.appendonly, 'no');
    assert.equal(ready.body.redis?.persistence.survivesRestart, false);
    assert.equal(await metric(tracker.url, 'tracker_redis_persistent'), 0);
    assert.equal(await metric(tracker.url, 'tracker_redis_restarts_total'), 0);

    const a = await signUpWithProject(tracker.url);
    const before: string[] = [];
    for (let i = 0; i < 20; i++) {
      const e = event();
      assert.equal((await sendError(tracker.url, a.key, e)).status, 202);
      before.push(e.eventId);
    }
    await waitFor('the events sent before the kill stored', async () => {
      const stored = await storedIds(tracker!, a.project.id);
      return before.every((id) => stored.has(id));
    });

    await redis.kill();
    await redis.start();
    await waitFor(
      'ingest answers 202 again',
      async () => (await sendError(tracker!.url, a.key, event())).status === 202,
      15_000,
    );
    // What this test is about: events accepted after the restart, stored by the same worker.
    const after: string[] = [];
    for (let i = 0; i < 50; i++) {
      const e = event();
      const r = await sendError(tracker.url, a.key, e);
      assert.equal(r.status, 202, JSON.stringify(r.body));
      after.push(e.eventId);
    }
    await waitFor(
      `all ${after.length} events accepted after the restart stored (without restarting the worker)`,
      async () => {
        const stored = await storedIds(tracker!, a.project.id);
        return after.every((id) => stored.has(id));
      },
      30_000,
    );
    await waitFor(
      'the restart counted in /metrics',
      async () => (await metric(tracker!.url, 'tracker_redis_restarts_total')) === 1,
    );
    assert.equal((await readyz(tracker.url)).body.redis?.restarts, 1);
    assert.ok(((await metric(tracker.url, 'tracker_queue_group_recreated_total{queue="jobs"}')) ?? 0) >= 1);
    // The alert dispatcher reads its own stream: it makes its group again too.
    await waitFor(
      'the alerts queue made its group again',
      async () => ((await metric(tracker!.url, 'tracker_queue_group_recreated_total{queue="alerts"}')) ?? 0) >= 1,
      10_000,
    );
    // A read may fail while Redis is down; none fails once it is back (NOGROUP failed for ever).
    const failures = tracker.worker?.stats.failuresByCause.receive ?? 0;
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal(tracker.worker?.stats.failuresByCause.receive, failures, 'reads fail after Redis is back');
  });
});

describe('Redis with persistence (appendonly yes, appendfsync always) killed with a backlog (postgres+redis)', () => {
  let redis: PrivateRedis;
  let env: TestEnv;
  const trackers: Tracker[] = [];
  after(async () => {
    for (const t of trackers) await t.close();
    await env?.cleanup();
    await redis?.close();
  });

  test('nothing accepted is lost across the kill: traffic before, during and after it, stored by a worker started afterwards', async () => {
    redis = await startPrivateRedis([], { appendOnly: true });
    env = await createTestEnv('postgres+redis', { redisUrl: redis.url });
    // No worker yet: what is accepted stays in Redis, the backlog the kill must not lose.
    const edge = await startTracker(env, { roles: ['ingest', 'api'] }, { redisWatchIntervalMs: 200 });
    trackers.push(edge);
    const ready = await readyz(edge.url);
    assert.equal(ready.body.redis?.persistence.appendonly, 'yes');
    assert.equal(ready.body.redis?.persistence.survivesRestart, true);
    assert.equal(await metric(edge.url, 'tracker_redis_persistent'), 1);
    const a = await signUpWithProject(edge.url);

    const traffic = keepSending(edge.url, a.key);
    await waitFor('a backlog of 300', async () => traffic.accepted.length >= 300, 30_000);
    await redis.kill();
    await new Promise((r) => setTimeout(r, 500));
    await redis.start();
    const atStart = traffic.accepted.length;
    await waitFor('200 more accepted after the restart', async () => traffic.accepted.length >= atStart + 200, 30_000);
    await traffic.stop();
    await waitFor('the restart counted', async () => (await metric(edge.url, 'tracker_redis_restarts_total')) === 1);

    const worker = await startTracker(env, { roles: ['worker'] });
    trackers.push(worker);
    const accepted = traffic.accepted;
    await waitFor(
      `all ${accepted.length} accepted events stored`,
      async () => {
        const stored = await storedIds(worker, a.project.id);
        return accepted.every((id) => stored.has(id));
      },
      60_000,
    );
    const stored = await storedIds(worker, a.project.id);
    assert.equal(accepted.filter((id) => !stored.has(id)).length, 0, 'lost');
    assert.equal(await worker.queue.depth(), 0);
    console.log(`accepted ${accepted.length}, refused (503) ${traffic.refused}, stored ${stored.size}`);
  });
});
