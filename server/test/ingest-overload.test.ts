import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EventSymbolicator } from '@tracker/core';
import { startWorker, type RunningWorker } from '@tracker/ingest';
import { createTestEnv, sendError, signUpWithProject, startTracker, waitFor, type Mode, type TestEnv } from './helpers';
import type { Tracker } from '../src';
import { buildEnvelope, errorEvent, item, sentryEventId, uuidOf } from './sentry-envelope';

/**
 * Issue 21, embedded overload: with a database queue, once the backlog (queue rows not yet
 * stored) reaches TRACKER_MAX_BACKLOG, ingest answers 503 with Retry-After instead of letting it
 * grow; once the worker drains it below, 202 again; and every event answered 202 is stored.
 * The worker is really stalled here (the process runs without the worker role) and then started
 * on the same queue, in the same process, as the worker role would start it.
 */
const BOUND = 40;
const CONCURRENCY = 8;

for (const [label, mode, overrides] of [
  ['embedded (PGlite)', 'embedded', {}],
  ['PostgreSQL without Redis (the database queue)', 'postgres+redis', { redisUrl: undefined }],
] as const) {
  describe(`ingest over its backlog bound: 503 + Retry-After, then 202 again, nothing lost (${label})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let worker: RunningWorker | undefined;
    let key: string;
    let account: Awaited<ReturnType<typeof signUpWithProject>>;
    const accepted: string[] = [];

    before(async () => {
      env = await createTestEnv(mode as Mode, {
        ...overrides,
        roles: ['ingest', 'api'],
        maxBacklog: { items: BOUND, bytes: 0 },
      });
      tracker = await startTracker(env);
      account = await signUpWithProject(tracker.url);
      key = account.key;
    });

    after(async () => {
      await worker?.stop();
      await tracker?.close();
      await env?.cleanup();
    });

    const backlog = async () =>
      (
        await tracker.db.ds.query(`SELECT count(*)::int AS n FROM queue_jobs WHERE topic = 'jobs' AND dead_at IS NULL`)
      )[0].n as number;

    test('a Sentry envelope counts each of its events against the bound, and is refused whole past it (issue 28)', async () => {
      const number = new URL(account.dsn).pathname.split('/').pop();
      const post = (ids: string[]) =>
        fetch(`${tracker.url}/api/${number}/envelope/?sentry_key=${key}`, {
          method: 'POST',
          body: buildEnvelope(
            {},
            ids.map((id) => item('event', errorEvent(id, { environment: 'production' }))),
          ),
        });
      const first = Array.from({ length: 30 }, sentryEventId);
      const r1 = await post(first);
      assert.equal(r1.status, 200, await r1.text());
      accepted.push(...first.map(uuidOf));
      assert.equal(await backlog(), 30);
      // 30 + 30 would pass the bound of 40: refused whole, nothing of it queued.
      const r2 = await post(Array.from({ length: 30 }, sentryEventId));
      const body = (await r2.json()) as { error: { code: string; message: string } };
      assert.equal(r2.status, 503, JSON.stringify(body));
      assert.equal(body.error.code, 'UNAVAILABLE');
      assert.ok(Number(r2.headers.get('retry-after')) >= 1);
      assert.equal(await backlog(), 30, 'nothing of the refused envelope was queued');
    });

    test('a stalled worker: 202 up to the bound, then 503 with Retry-After on every ingest door', async () => {
      const statuses: Record<number, number> = {};
      let i = 0;
      const send = async () => {
        const n = i++;
        const r = await sendError(tracker.url, key, { type: 'Overload', message: `e${n}`, environment: 'production' });
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        if (r.status === 202) accepted.push(r.body.id);
        else {
          assert.equal(r.status, 503, JSON.stringify(r.body));
          assert.equal(r.body.error.code, 'UNAVAILABLE');
          assert.match(r.body.error.message, /waiting to be stored/);
          const retryAfter = Number(r.headers.get('retry-after'));
          assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 30, `Retry-After ${retryAfter}`);
        }
      };
      // Rounds of concurrent requests, as SDKs on many pages would send them.
      for (let round = 0; round < 20; round++) await Promise.all(Array.from({ length: CONCURRENCY }, send));
      assert.ok(statuses[503] > 0, `no 503 at all: ${JSON.stringify(statuses)}`);
      // The bound is checked before the quota gate and the enqueue: requests in flight may pass it together.
      assert.ok(accepted.length >= BOUND, `accepted ${accepted.length} before refusing`);
      assert.ok(accepted.length <= BOUND + CONCURRENCY, `accepted ${accepted.length} with a bound of ${BOUND}`);
      assert.equal(await backlog(), accepted.length, 'every 202 is a queue row');

      // The other doors refuse too (fastify routes, not the fast path).
      const log = await fetch(`${tracker.url}/ingest/log`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `DSN ${key}` },
        body: JSON.stringify({ level: 'info', message: 'm', environment: 'production' }),
      });
      assert.equal(log.status, 503);
      assert.ok(Number(log.headers.get('retry-after')) >= 1);
      const unknown = await fetch(`${tracker.url}/ingest/error`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'DSN et_00000000000000000000000000000000' },
        body: JSON.stringify({ type: 'E', message: 'm', environment: 'production' }),
      });
      assert.equal(unknown.status, 401, 'a bad credential is still told so');
      const metrics = await (await fetch(`${tracker.url}/metrics`)).text();
      assert.match(metrics, /tracker_ingest_dropped_total\{reason="unavailable"\} [1-9]/);
    });

    test('the worker drains the backlog: 202 again, and every event answered 202 is stored', async () => {
      worker = startWorker({
        ds: tracker.db.ds,
        queue: tracker.queue,
        batchSize: 10,
        symbolicator: new EventSymbolicator(tracker.db.ds, { maxCacheBytes: 16 * 1024 * 1024 }),
        alerts: tracker.alertsQueue,
        publicUrl: () => tracker.url,
        log: () => undefined,
      });
      const reopened = await waitFor(
        'ingest to accept again',
        async () => {
          const r = await sendError(tracker.url, key, {
            type: 'Overload',
            message: 'after',
            environment: 'production',
          });
          if (r.status === 202) {
            accepted.push(r.body.id);
            return true;
          }
          assert.equal(r.status, 503);
          return false;
        },
        60_000,
      );
      assert.ok(reopened);
      await waitFor(
        'every accepted event stored',
        async () =>
          (
            await tracker.db.ds.query('SELECT count(*)::int AS n FROM events WHERE event_id = ANY($1::uuid[])', [
              accepted,
            ])
          )[0].n === accepted.length,
        60_000,
      );
      assert.equal(await backlog(), 0);
    });
  });
}
