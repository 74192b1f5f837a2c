import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeJob, errorEventSchema, type ErrorJob } from '@tracker/core';
import { createTestRedisPrefix, TEST_REDIS_URL } from '@tracker/core/testing';
import { RedisStreamQueue } from '@tracker/ingest';
import { createClient } from 'redis';
import type { Tracker } from '../src';
import { createTestEnv, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';
import { startRespProxy, type RespProxy } from './resp-proxy';

/**
 * The ingest edge's enqueue path (PostgreSQL + Redis): group-committed XADDs, one 202 per entry
 * Redis acknowledged, a 503 for exactly the requests whose entry Redis refused, and the fast
 * path (body text enqueued as received) writing the same jobs as the zod path.
 */

/** Payloads containing this are refused by Redis (the proxy turns their XADD into an unknown command). */
const REFUSE = 'REFUSE-ME';

function refuseMarked(args: Buffer[]): Buffer[] {
  if (args[0].toString().toUpperCase() === 'XADD' && args.some((a) => a.includes(REFUSE))) {
    return [Buffer.from('XADD-REFUSED-BY-TEST'), ...args.slice(1)];
  }
  return args;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ingest enqueue: group commit, acknowledgement before 202, per-request failures (postgres+redis)', () => {
  let env: TestEnv;
  let proxy: RespProxy;
  let tracker: Tracker;
  let key: string;
  let projectId: string;
  const admin = createClient({ url: TEST_REDIS_URL });
  let stream: string;

  before(async () => {
    env = await createTestEnv('postgres+redis');
    proxy = await startRespProxy(env.config.redisUrl!, refuseMarked);
    tracker = await startTracker(env, { roles: ['ingest', 'api'], redisUrl: proxy.url });
    const a = await signUpWithProject(tracker.url);
    key = a.key;
    projectId = a.project.id;
    await admin.connect();
    stream = `${env.config.redisPrefix}:jobs`;
  });
  after(async () => {
    await tracker?.close();
    await proxy?.close();
    for (const k of await admin.keys(`${env.config.redisPrefix}:*`)) await admin.del(k);
    await admin.close();
    await env?.cleanup();
  });

  const payloadsInStream = async () => ((await admin.xRange(stream, '-', '+')) ?? []).map((e) => e!.message.p);

  /** Stream entries as decoded jobs, by event id. */
  async function jobsInStream(): Promise<Map<string, ErrorJob>> {
    const jobs = new Map<string, ErrorJob>();
    for (const p of await payloadsInStream()) {
      const job = decodeJob(p) as ErrorJob;
      assert.equal(job.kind, 'error');
      assert.ok(!jobs.has(job.event.eventId), `event ${job.event.eventId} enqueued twice`);
      jobs.set(job.event.eventId, job);
    }
    return jobs;
  }

  async function emptyStream() {
    await admin.xTrim(stream, 'MAXLEN', 0);
  }

  test('concurrent requests are answered 202 only once Redis has acknowledged their entries', async () => {
    await emptyStream();
    const N = 120;
    proxy.holdReplies();
    let answered = 0;
    const ids = Array.from({ length: N }, () => randomUUID());
    const requests = ids.map((eventId, i) =>
      sendError(tracker.url, key, { eventId, type: 'Error', message: `held ${i}`, environment: 'production' }).then(
        (r) => {
          answered++;
          return r;
        },
      ),
    );
    try {
      // Every XADD has reached Redis, but its answer is held in the proxy...
      await waitFor('the entries to reach Redis', async () => (await admin.xLen(stream)) === N);
      await sleep(300);
      // ...so no request may have been answered yet.
      assert.equal(answered, 0, `${answered} requests were answered before Redis acknowledged their entries`);
    } finally {
      proxy.releaseReplies();
    }
    const results = await Promise.all(requests);
    assert.deepEqual(
      results.map((r) => r.status),
      ids.map(() => 202),
    );
    assert.deepEqual(
      results.map((r) => r.body.id),
      ids,
    );
    assert.deepEqual([...(await jobsInStream()).keys()].sort(), [...ids].sort());
  });

  test('when Redis refuses some entries, exactly those requests get 503 and every 202 is in the stream', async () => {
    await emptyStream();
    const sends = Array.from({ length: 90 }, (_, i) => ({
      // Canonical and non-canonical bodies (numeric user id) alike.
      eventId: randomUUID(),
      type: 'Error',
      message: i % 3 === 0 ? `${REFUSE} ${i}` : `fine ${i}`,
      environment: 'production',
      ...(i % 2 ? { user: { id: i } } : {}),
    }));
    const results = await Promise.all(sends.map((s) => sendError(tracker.url, key, s)));
    const accepted = new Set<string>();
    results.forEach((r, i) => {
      if (sends[i].message.startsWith(REFUSE)) {
        assert.equal(r.status, 503, JSON.stringify(r.body));
        assert.equal(r.body.error.code, 'UNAVAILABLE');
      } else {
        assert.equal(r.status, 202, JSON.stringify(r.body));
        assert.equal(r.body.id, sends[i].eventId);
        accepted.add(r.body.id);
      }
    });
    assert.equal(accepted.size, 60);
    assert.deepEqual([...(await jobsInStream()).keys()].sort(), [...accepted].sort());
  });

  test('the fast path (body text as received) and the zod path enqueue the same jobs', async () => {
    await emptyStream();
    const eventId = randomUUID();
    const bodies: Array<{ name: string; text: string }> = [
      {
        name: 'canonical, with id',
        text: JSON.stringify({ eventId, type: 'Error', message: 'm', environment: 'p', tags: { a: 'b' } }),
      },
      {
        name: 'canonical, no id',
        text: JSON.stringify({ type: 'Error', message: 'm', environment: 'p', user: { id: 'u', plan: 'pro' } }),
      },
      {
        name: 'canonical, pretty-printed, escapes',
        text: '{\n  "type": "E\\u0072ror",\n  "message": "caf\\u00e9 \\ud83d\\ude00 \\"q\\"",\n  "environment": "p"\n}\n',
      },
      {
        name: 'uppercase id',
        text: JSON.stringify({ eventId: randomUUID().toUpperCase(), type: 'Error', message: 'm', environment: 'p' }),
      },
      {
        name: 'nulls',
        text: JSON.stringify({
          type: 'Error',
          message: 'm',
          environment: 'p',
          release: null,
          user: null,
          eventId: null,
        }),
      },
      {
        name: 'numeric user id and tags',
        text: JSON.stringify({
          type: 'Error',
          message: 'm',
          environment: 'p',
          user: { id: 7 },
          tags: { n: 1, b: true },
        }),
      },
      {
        name: 'oversized message',
        text: JSON.stringify({ type: 'Error', message: 'x'.repeat(20_000), environment: 'p' }),
      },
      {
        name: 'unknown field (100 KB)',
        text: JSON.stringify({ type: 'Error', message: 'm', environment: 'p', junk: 'j'.repeat(100_000) }),
      },
      {
        name: 'sdk with an extra key',
        text: JSON.stringify({
          type: 'Error',
          message: 'm',
          environment: 'p',
          sdk: { name: 'n', version: '1', extra: 1 },
        }),
      },
    ];
    const ids: string[] = [];
    for (const b of bodies) {
      const r = await sendError(tracker.url, key, b.text);
      assert.equal(r.status, 202, `${b.name}: ${JSON.stringify(r.body)}`);
      ids.push(r.body.id);
    }
    const jobs = await jobsInStream();
    const raw = await payloadsInStream();
    bodies.forEach((b, i) => {
      const job = jobs.get(ids[i]);
      assert.ok(job, `${b.name}: not in the stream under the id it was answered with (${ids[i]})`);
      assert.equal(job.v, 1);
      assert.equal(job.projectId, projectId);
      assert.ok(Math.abs(Date.parse(job.receivedAt) - Date.now()) < 60_000);
      const parsed = errorEventSchema.parse(JSON.parse(b.text));
      const expected = JSON.parse(JSON.stringify({ ...parsed, eventId: parsed.eventId ?? ids[i] }));
      assert.deepEqual(JSON.parse(JSON.stringify(job.event)), expected, b.name);
    });
    // What zod drops or cuts is not stored either: no entry carries the 100 KB unknown field.
    assert.ok(Math.max(...raw.map((p) => p.length)) < 12_000, 'an entry kept text the schema drops');
  });

  test('a body with a __proto__ or constructor.prototype key is refused like fastify does', async () => {
    for (const text of [
      '{"type":"Error","message":"m","environment":"p","__proto__":{"x":1}}',
      '{"type":"Error","message":"m","environment":"p","context":{"constructor":{"prototype":{"x":1}}}}',
    ]) {
      const r = await sendError(tracker.url, key, text);
      assert.equal(r.status, 400, text);
      assert.equal(r.body.error.code, 'BAD_USER_INPUT');
    }
  });
});

for (const ownXaddConnection of [true, false]) {
  describe(`RedisStreamQueue.enqueue: each caller settles with its own entries (XADDs ${ownXaddConnection ? "over the queue's own connection" : 'through node-redis'})`, () => {
    let proxy: RespProxy;
    const admin = createClient({ url: TEST_REDIS_URL });
    const prefix = createTestRedisPrefix();
    let queue: RedisStreamQueue;

    before(async () => {
      proxy = await startRespProxy(TEST_REDIS_URL, refuseMarked);
      queue = await RedisStreamQueue.connect({
        url: proxy.url,
        prefix,
        enqueueTimeoutMs: 400,
        ownXaddConnection,
        // Enqueue only: nothing here is ever set aside.
        deadLetters: async () => {
          throw new Error('no dead letter expected in an enqueue test');
        },
      });
      await admin.connect();
    });
    after(async () => {
      await queue?.close();
      await proxy?.close();
      for (const k of await admin.keys(`${prefix}:*`)) await admin.del(k);
      await admin.close();
    });

    const entries = async () => ((await admin.xRange(`${prefix}:jobs`, '-', '+')) ?? []).map((e) => e!.message.p);

    test('callers of one flush, some with several payloads: a refused entry fails its caller only', async () => {
      const calls = [['a'], ['b', `${REFUSE}-1`, 'c'], ['d'], [`${REFUSE}-2`], ['e', 'f'], []];
      // Issued in the same tick: one flush.
      const outcomes = await Promise.allSettled(calls.map((c) => queue.enqueue(c)));
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
      );
      // At least once: the other entries of a failed call may be stored (its client retries).
      assert.deepEqual((await entries()).sort(), ['a', 'b', 'c', 'd', 'e', 'f']);
    });

    test('no answer from Redis within the timeout: every caller of the flush fails, none hangs', async () => {
      await admin.del(`${prefix}:jobs`);
      proxy.holdReplies();
      const started = Date.now();
      try {
        const outcomes = await Promise.allSettled(['x1', 'x2', 'x3'].map((p) => queue.enqueue([p])));
        assert.ok(outcomes.every((o) => o.status === 'rejected' && /did not confirm/.test(String(o.reason))));
        assert.ok(Date.now() - started < 3_000);
      } finally {
        proxy.releaseReplies();
      }
      // Late answers change nothing, and the queue keeps working.
      await queue.enqueue(['y']);
      assert.deepEqual((await entries()).sort(), ['x1', 'x2', 'x3', 'y']);
    });
  });
}
