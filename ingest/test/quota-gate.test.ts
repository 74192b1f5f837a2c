import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  openDatabase,
  setOrganizationPlan,
  signUp,
  usageRedisKey,
  type Database,
  type KeyInfo,
  type UsageMeter,
} from '@tracker/core';
import { createTestPostgres, createTestRedisPrefix, TEST_REDIS_URL, type TestPostgres } from '@tracker/core/testing';
import { createClient } from 'redis';
import { createRedisIngestGate, type IngestGate } from '../src/quota';
import { PlanLimits } from '../src/quota/plan-limits';

/*
 * The gate on real PostgreSQL and Redis, with its clock held: every time-dependent rule must
 * follow the clock it is given. The clock starts years from now, so a rule that read the wall
 * clock would decide otherwise.
 */
const T = Date.parse('2031-03-15T12:00:00.000Z');

describe('the quota gate follows the clock it is given (postgres+redis)', () => {
  let pg: TestPostgres;
  let db: Database;
  let redis: ReturnType<typeof createClient>;
  const prefix = createTestRedisPrefix();

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    redis = createClient({ url: TEST_REDIS_URL });
    await redis.connect();
  });

  after(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(keys);
    await redis.close();
    await db.close();
    await pg.drop();
  });

  async function newOrganization(plan: 'free' | 'business' = 'business') {
    const account = await signUp(
      db.ds,
      { email: `gate-${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Gate' },
      plan,
    );
    return account.organization;
  }

  function keyOf(organizationId: string) {
    return {
      keyId: `k-${organizationId}`,
      projectId: randomUUID(),
      projectNumber: 1,
      organizationId,
      rateLimitPerSecond: null,
    };
  }

  async function admitted(gate: IngestGate, key: KeyInfo, meter: UsageMeter): Promise<boolean> {
    try {
      await gate.admit(key, meter);
      return true;
    } catch {
      return false;
    }
  }

  test('"limit reached" is remembered for exhaustedRecheckMs of the clock, not of the wall clock', async () => {
    const org = await newOrganization();
    let now = T;
    const gate = await createRedisIngestGate(
      db.ds,
      { url: TEST_REDIS_URL, prefix },
      { clock: () => now, eventLimitOverride: 1, exhaustedRecheckMs: 1_000 },
    );
    try {
      const key = keyOf(org.id);
      assert.equal(await admitted(gate, key, 'events'), true);
      assert.equal(await admitted(gate, key, 'events'), false, 'the limit of 1 is reached');
      // Another process gave its unit back: only a new count would see it.
      await redis.del(usageRedisKey(prefix, 'events', org.id, '2031-03'));
      now = T + 999;
      assert.equal(await admitted(gate, key, 'events'), false, 'still remembered 999 ms later');
      now = T + 1_000;
      assert.equal(await admitted(gate, key, 'events'), true, 'asked again once the recheck time came');
    } finally {
      await gate.close();
    }
  });

  test('after a stalled event loop, a request that finds the count outstanding reads its answer before admitting', async () => {
    const org = await newOrganization();
    let now = T;
    const gate = await createRedisIngestGate(
      db.ds,
      { url: TEST_REDIS_URL, prefix },
      { clock: () => now, eventLimitOverride: 5, failOpenMs: 500 },
    );
    try {
      const key = keyOf(org.id);
      assert.equal(await admitted(gate, key, 'events'), true, 'plan limits cached, one unit taken');
      // Other processes have used the rest of the 5 events this month.
      await redis.set(usageRedisKey(prefix, 'events', org.id, '2031-03'), '5');
      // The first request asks Redis; its answer ("the limit is reached") comes back at once...
      const first = admitted(gate, key, 'events');
      await new Promise((r) => setImmediate(r)); // node-redis writes its commands in a setImmediate
      // ...but the event loop is blocked for 2 s (a long GC, a long synchronous task) and only
      // then gets to the next request, with the answer waiting in the socket, not yet read.
      const blockedUntil = Date.now() + 100;
      while (Date.now() < blockedUntil); // real time for the answer to arrive
      now = T + 2_000; // the clock the gate reads moved on by the stall
      const second = admitted(gate, key, 'events');
      assert.equal(await second, false, 'the count was not stuck, only unread: over the quota is refused');
      assert.equal(await first, false);
    } finally {
      await gate.close();
    }
  });

  test('held units stay held while the clock stands still, and go back once it passes idleReleaseMs', async () => {
    const org = await newOrganization();
    let now = T;
    const gate = await createRedisIngestGate(
      db.ds,
      { url: TEST_REDIS_URL, prefix },
      { clock: () => now, eventLimitOverride: 1_000, idleReleaseMs: 100 },
    );
    const count = async () => Number(await redis.get(usageRedisKey(prefix, 'events', org.id, '2031-03')));
    try {
      // The second count asks for a block of 2 (the first ran out at once): one unit stays held.
      assert.equal(await admitted(gate, keyOf(org.id), 'events'), true);
      assert.equal(await admitted(gate, keyOf(org.id), 'events'), true);
      const held = await count();
      assert.equal(held, 3);
      // The idle release looks every 100 ms of real time, but idleness is measured by the clock.
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(await count(), held, 'nothing goes back while the clock stands still');
      now = T + 101;
      const settled = Date.now() + 5_000;
      while ((await count()) !== 2 && Date.now() < settled) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await count(), 2, 'the unused unit went back');
    } finally {
      await gate.close();
    }
  });

  test("an organization's plan limits are trusted for the cache's lifetime of the clock", async () => {
    const org = await newOrganization('free');
    let now = T;
    const limits = new PlanLimits(db.ds, () => now, 5_000, {});
    assert.deepEqual(await limits.of(org.id), { events: 5_000, logs: 50_000 });
    await setOrganizationPlan(db.ds, org.slug, 'business');
    now = T + 4_999;
    assert.equal((limits.of(org.id) as { events: number }).events, 5_000);
    await new Promise((r) => setTimeout(r, 50)); // a refresh started by mistake would land here
    assert.equal((limits.of(org.id) as { events: number }).events, 5_000, 'still trusted 4,999 ms later');
    now = T + 5_000;
    assert.equal((limits.of(org.id) as { events: number }).events, 5_000, 'the stale entry serves while it refreshes');
    const deadline = Date.now() + 2_000; // well under the 5 s the wall clock would take
    while ((limits.of(org.id) as { events: number }).events !== 1_000_000 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    assert.equal((limits.of(org.id) as { events: number }).events, 1_000_000);
  });
});
