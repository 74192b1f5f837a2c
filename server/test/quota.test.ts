import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  findOrganizationUsage,
  quotaPeriod,
  secondsUntilPeriodEnd,
  setOrganizationPlan,
  usageRedisKey,
} from '@tracker/core';
import { createRedisIngestGate } from '@tracker/ingest';
import { createClient } from 'redis';
import { createTracker, type Tracker } from '../src';
import { createTestEnv, sendError, signUpWithProject, waitFor, type TestEnv } from './helpers';

const EVENT = { type: 'TypeError', message: 'boom', environment: 'production' };

async function sendFeedback(baseUrl: string, key: string) {
  const res = await fetch(`${baseUrl}/ingest/feedback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `DSN ${key}` },
    body: JSON.stringify({ message: 'it broke', email: 'a@example.com', eventId: crypto.randomUUID() }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Sends `n` errors, `concurrency` at a time, alternating between the given processes. */
async function flood(urls: string[], key: string, n: number, concurrency = 32) {
  const results: Array<{ status: number; retryAfter: string | null; code?: string }> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const r = await sendError(urls[i % urls.length], key, EVENT);
        results.push({ status: r.status, retryAfter: r.headers.get('retry-after'), code: r.body?.error?.code });
      }
    }),
  );
  return results;
}

/** Waits for the start of a fresh second, so a burst falls inside one rate-limit window. */
async function startOfSecond() {
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
}

test('the quota period is the UTC calendar month', () => {
  assert.equal(quotaPeriod(new Date('2026-02-28T23:59:59Z')), '2026-02');
  assert.equal(secondsUntilPeriodEnd(new Date('2026-02-28T23:59:59Z')), 1);
  assert.equal(secondsUntilPeriodEnd(new Date('2026-12-31T00:00:00Z')), 86_400);
  assert.equal(secondsUntilPeriodEnd(new Date('2026-03-01T00:00:00Z')), 31 * 86_400);
});

describe('event quota and rate limits across two ingest processes (postgres+redis)', () => {
  let env: TestEnv;
  let a: Tracker;
  let b: Tracker;
  let redis: ReturnType<typeof createClient>;

  before(async () => {
    env = await createTestEnv('postgres+redis');
    // No worker: the stream keeps every accepted event, so its length is the accepted count.
    a = await createTracker({ config: { ...env.config, roles: ['ingest', 'api'] } });
    await a.listen();
    b = await createTracker({ config: { ...env.config, roles: ['ingest'] }, migrate: false });
    await b.listen();
    redis = createClient({ url: env.config.redisUrl });
    await redis.connect();
  });

  after(async () => {
    await redis?.quit().catch(() => undefined);
    await a?.close();
    await b?.close();
    await env?.cleanup();
  });

  test(
    'a free org gets 5,000 errors, then 429 until a plan change lifts the limit',
    { timeout: 180_000 },
    async (t) => {
      const acct = await signUpWithProject(a.url);
      assert.equal(acct.organization.plan, 'free');
      const results = await flood([a.url, b.url], acct.key, 5_100);
      const accepted = results.filter((r) => r.status === 202).length;
      const refused = results.filter((r) => r.status === 429);
      t.diagnostic(`accepted ${accepted} of 5,100 across two processes`);
      assert.ok(Math.abs(accepted - 5_000) <= 50, `accepted ${accepted}`);
      assert.equal(accepted + refused.length, 5_100);
      for (const r of refused) {
        assert.equal(r.code, 'RATE_LIMITED');
        assert.ok(Number(r.retryAfter) >= 1, `Retry-After ${r.retryAfter}`);
      }
      // Refused events never reached the queue.
      assert.equal(await redis.xLen(`${env.config.redisPrefix}:jobs`), accepted);

      // Feedback does not count.
      assert.equal(await sendFeedback(a.url, acct.key), 202);
      assert.equal(await sendFeedback(b.url, acct.key), 202);
      assert.equal((await sendError(b.url, acct.key, EVENT)).status, 429);

      const changed = Date.now();
      await setOrganizationPlan(a.db.ds, acct.organization.slug, 'pro');
      for (const t of [a, b]) {
        await waitFor(
          'an accepted event after the upgrade',
          async () => (await sendError(t.url, acct.key, EVENT)).status === 202,
          10_000,
        );
      }
      assert.ok(Date.now() - changed < 10_000);
    },
  );

  test('the gate follows its clock: a new month and a new second bring fresh units', async () => {
    const acct = await signUpWithProject(a.url);
    let now = new Date('2031-01-31T23:59:58.500Z');
    const gate = await createRedisIngestGate(
      a.db.ds,
      { url: env.config.redisUrl!, prefix: env.config.redisPrefix },
      { clock: () => now.getTime(), eventLimitOverride: 3 },
    );
    const key = { keyId: `k-${acct.project.id}`, projectId: acct.project.id, projectNumber: 1, organizationId: acct.organization.id };
    const admitted = async (rateLimitPerSecond: number | null) => {
      try {
        await gate.admit({ ...key, rateLimitPerSecond }, 'events');
        return true;
      } catch {
        return false;
      }
    };
    try {
      const january = [];
      for (let i = 0; i < 4; i++) january.push(await admitted(null));
      assert.deepEqual(january, [true, true, true, false], 'three events in January, then the quota');
      now = new Date('2031-02-01T00:00:00.100Z');
      assert.equal(await admitted(null), true, 'February starts from zero');
      // The rate limit's window is the second: two per second, then a new second.
      now = new Date('2031-02-01T00:00:05.000Z');
      assert.deepEqual([await admitted(2), await admitted(2), await admitted(2)], [true, true, false], 'two a second');
      now = new Date('2031-02-01T00:00:06.000Z');
      assert.equal(await admitted(2), false, 'the next second has rate units, but February has 3 events: all used');
      const counts = await redis.get(usageRedisKey(env.config.redisPrefix, 'events', acct.organization.id, '2031-02'));
      assert.equal(Number(counts), 3);
    } finally {
      await gate.close();
    }
  });

  test('blocks reserved by each process go back to the shared count when idle', { timeout: 60_000 }, async () => {
    const acct = await signUpWithProject(a.url);
    await setOrganizationPlan(a.db.ds, acct.organization.slug, 'business');
    // The limit cache may still hold "free" for this brand-new org: wait until both see business.
    const results = await flood([a.url, b.url], acct.key, 700, 16);
    const accepted = results.filter((r) => r.status === 202).length;
    assert.equal(accepted, 700);
    const key = usageRedisKey(env.config.redisPrefix, 'events', acct.organization.id, quotaPeriod());
    const held = Number(await redis.get(key));
    assert.ok(held >= accepted, `count ${held} below the ${accepted} accepted`);
    // Unused units are given back after ~2 s idle, so the shared count settles on what was accepted.
    await waitFor('the count to settle', async () => Number(await redis.get(key)) === accepted, 10_000);
  });

  test(
    'a steady flow reserves quota in blocks: few round trips to Redis, exact totals',
    { timeout: 60_000 },
    async (t) => {
      const acct = await signUpWithProject(a.url);
      const key = usageRedisKey(env.config.redisPrefix, 'events', acct.organization.id, quotaPeriod());
      const monitor = redis.duplicate();
      await monitor.connect();
      let reservations = 0;
      await monitor.monitor((line: string) => {
        if (line.includes('"EVAL"') && line.includes(key)) reservations += 1;
      });
      const results = await flood([a.url], acct.key, 1_000, 16);
      assert.equal(results.filter((r) => r.status === 202).length, 1_000);
      monitor.destroy(); // QUIT would wait forever: a monitoring connection reads every reply as a line
      t.diagnostic(`${reservations} reservations for 1,000 events`);
      // One round trip per event would be 1,000; blocks double while used up within a second.
      assert.ok(reservations > 0 && reservations <= 60, `${reservations} reservations for 1,000 events`);
      await waitFor('the count to settle', async () => Number(await redis.get(key)) === 1_000, 10_000);
    },
  );

  test('a key with rate_limit_per_second = 5 gets about 5 of 20 events in one second', async () => {
    const acct = await signUpWithProject(a.url);
    await a.db.ds.query('UPDATE project_keys SET rate_limit_per_second = 5 WHERE public_key = $1', [acct.key]);
    await startOfSecond();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sendError(i % 2 ? a.url : b.url, acct.key, EVENT)),
    );
    const accepted = results.filter((r) => r.status === 202).length;
    // Exactly 5 unless the burst straddles a second boundary.
    assert.ok(accepted >= 5 && accepted <= 10, `accepted ${accepted}`);
    for (const r of results.filter((r) => r.status === 429)) {
      assert.equal(r.body.error.code, 'RATE_LIMITED');
      assert.equal(r.headers.get('retry-after'), '1');
    }
    assert.equal(results.filter((r) => r.status === 429).length, 20 - accepted);
    // The next second has room again.
    await startOfSecond();
    assert.equal((await sendError(a.url, acct.key, EVENT)).status, 202);
  });
});

describe('event quota and rate limits (embedded)', () => {
  let env: TestEnv;
  let tracker: Tracker;

  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await createTracker({ config: env.config, quota: { eventLimitOverride: 10, logLimitOverride: 3 } });
    await tracker.listen();
  });

  after(async () => {
    await tracker?.close();
    await env?.cleanup();
  });

  test('events over the limit are refused, counted in org_usage; feedback is accepted', async () => {
    const acct = await signUpWithProject(tracker.url);
    const results = await flood([tracker.url], acct.key, 15, 4);
    assert.equal(results.filter((r) => r.status === 202).length, 10);
    const refused = results.filter((r) => r.status === 429);
    assert.equal(refused.length, 5);
    assert.ok(refused.every((r) => Number(r.retryAfter) >= 1));
    assert.equal(await findOrganizationUsage(tracker.db.ds, acct.organization.id, quotaPeriod()), 10);
    assert.equal(await sendFeedback(tracker.url, acct.key), 202);
  });

  test('log entries have their own monthly cap, separate from the event quota', async () => {
    const acct = await signUpWithProject(tracker.url);
    const sendLog = async () => {
      const res = await fetch(`${tracker.url}/ingest/log`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `DSN ${acct.key}` },
        body: JSON.stringify({ level: 'info', message: 'hello', environment: 'production' }),
      });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any };
    };
    const logs = [];
    for (let i = 0; i < 5; i++) logs.push(await sendLog());
    assert.deepEqual(
      logs.map((r) => r.status),
      [202, 202, 202, 429, 429],
    );
    assert.equal(logs[3].body.error.code, 'RATE_LIMITED');
    assert.match(logs[3].body.error.message, /monthly log quota of 3 entries/);
    assert.ok(Number(logs[3].retryAfter) >= 1);
    assert.equal(await findOrganizationUsage(tracker.db.ds, acct.organization.id, quotaPeriod(), 'logs'), 3);
    // Logs leave the event quota alone.
    assert.equal((await sendError(tracker.url, acct.key, EVENT)).status, 202);
    await waitFor(
      'the event count',
      async () => (await findOrganizationUsage(tracker.db.ds, acct.organization.id, quotaPeriod(), 'events')) >= 1,
    );
  });

  test('the per-key rate limit applies in memory, to feedback too', async () => {
    const acct = await signUpWithProject(tracker.url);
    await tracker.db.ds.query('UPDATE project_keys SET rate_limit_per_second = 3 WHERE public_key = $1', [acct.key]);
    await startOfSecond();
    const statuses = await Promise.all([
      ...Array.from({ length: 6 }, async () => (await sendError(tracker.url, acct.key, EVENT)).status),
      sendFeedback(tracker.url, acct.key),
      sendFeedback(tracker.url, acct.key),
    ]);
    const accepted = statuses.filter((s) => s === 202).length;
    // Exactly 3 unless the burst straddles a second boundary.
    assert.ok(accepted >= 3 && accepted <= 6, `accepted ${accepted}`);
    assert.equal(statuses.filter((s) => s === 429).length, 8 - accepted);
  });
});

for (const mode of ['embedded', 'postgres+redis'] as const) {
  describe(`an SDK retry of the same event id counts once against the quota (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    before(async () => {
      env = await createTestEnv(mode);
      tracker = await createTracker({ config: env.config, quota: { eventLimitOverride: 3, logLimitOverride: 2 } });
      await tracker.listen();
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    test('five deliveries of one event id and two new events fit a quota of 3; the fourth new one does not', async () => {
      const acct = await signUpWithProject(tracker.url);
      const eventId = crypto.randomUUID();
      for (let i = 0; i < 5; i++) {
        // Both paths: the fast path (charset) and fastify's route.
        const headers: Record<string, string> = i % 2 ? { 'content-type': 'application/json; charset=utf-8' } : {};
        assert.equal(
          (await sendError(tracker.url, acct.key, { ...EVENT, eventId }, headers)).status,
          202,
          `delivery ${i}`,
        );
      }
      assert.equal((await sendError(tracker.url, acct.key, EVENT)).status, 202);
      assert.equal((await sendError(tracker.url, acct.key, EVENT)).status, 202);
      const over = await sendError(tracker.url, acct.key, EVENT);
      assert.equal(over.status, 429);
      assert.ok(Number(over.headers.get('retry-after')) >= 1);
      // The retried event is stored once.
      await waitFor('the event', async () => {
        const [row] = await tracker.db.ds.query('SELECT count(*)::int AS n FROM events WHERE event_id = $1', [eventId]);
        return row.n === 1;
      });
    });

    test('a log resent with its id counts once against the log quota', async () => {
      const acct = await signUpWithProject(tracker.url);
      const sendLog = async (id?: string) => {
        const res = await fetch(`${tracker.url}/ingest/log`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `DSN ${acct.key}` },
          body: JSON.stringify({ id, level: 'info', message: 'hello' }),
        });
        await res.arrayBuffer();
        return res.status;
      };
      const id = crypto.randomUUID();
      assert.deepEqual(
        [await sendLog(id), await sendLog(id), await sendLog(id), await sendLog(), await sendLog()],
        [202, 202, 202, 202, 429],
      );
    });
  });
}
