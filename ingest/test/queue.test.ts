import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type Database } from '@tracker/core';
import { createTestPostgres, createTestRedisPrefix, TEST_REDIS_URL } from '@tracker/core/testing';
import { createClient } from 'redis';
import { DatabaseQueue, MAX_ATTEMPTS, RedisStreamQueue, type Queue } from '../src/queue';

interface Backend {
  name: string;
  /** A queue, and a second consumer of the same queue (another worker process). */
  open(): Promise<{
    queue: Queue;
    other: Queue;
    deadLetters(): Promise<string[]>;
    /** Makes failed messages due now instead of after their back-off (a no-op where there is none). */
    makeDue(): Promise<void>;
    close(): Promise<void>;
  }>;
}

const backends: Backend[] = [
  {
    name: 'Redis stream',
    async open() {
      const prefix = createTestRedisPrefix();
      const queue = await RedisStreamQueue.connect({ url: TEST_REDIS_URL, prefix, reclaimIdleMs: 200 });
      const other = await RedisStreamQueue.connect({ url: TEST_REDIS_URL, prefix, reclaimIdleMs: 200 });
      const admin = createClient({ url: TEST_REDIS_URL });
      await admin.connect();
      return {
        queue,
        other,
        makeDue: async () => undefined,
        deadLetters: async () => ((await admin.xRange(`${prefix}:jobs:dead`, '-', '+')) ?? []).map((e) => e!.message.p),
        close: async () => {
          await queue.close();
          await other.close();
          for (const key of await admin.keys(`${prefix}:*`)) await admin.del(key);
          await admin.close();
        },
      };
    },
  },
  {
    name: 'database table (PostgreSQL)',
    async open() {
      const pg = await createTestPostgres();
      const db: Database = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
      const queue = await DatabaseQueue.open(db.ds, { visibilityMs: 200, pollMs: 20 });
      const other = await DatabaseQueue.open(db.ds, { visibilityMs: 200, pollMs: 20 });
      return {
        queue,
        other,
        makeDue: async () => {
          await db.ds.query('UPDATE queue_jobs SET available_at = now()');
        },
        deadLetters: async () =>
          (await db.ds.query('SELECT payload FROM queue_jobs WHERE dead_at IS NOT NULL ORDER BY id')).map(
            (r: { payload: string }) => r.payload,
          ),
        close: async () => {
          await queue.close();
          await other.close();
          await db.close();
          await pg.drop();
        },
      };
    },
  },
];

for (const backend of backends) {
  describe(`queue contract: ${backend.name}`, () => {
    let q: Awaited<ReturnType<Backend['open']>>;
    before(async () => {
      q = await backend.open();
    });
    after(async () => {
      await q.close();
    });

    async function drain(queue: Queue, waitMs = 50) {
      const out = [];
      for (;;) {
        const got = await queue.receive(100, waitMs);
        if (got.length === 0) return out;
        out.push(...got);
      }
    }

    test('delivers in order, once to one consumer, and forgets acked messages', async () => {
      await q.queue.enqueue(['a', 'b']);
      await q.queue.enqueue(['c']);
      const got = await q.queue.receive(10, 1000);
      assert.deepEqual(got.map((m) => m.payload), ['a', 'b', 'c']);
      assert.ok(got.every((m) => m.attempts === 1));
      assert.deepEqual(await q.other.receive(10, 50), [], 'in flight: not visible to another consumer');
      await q.queue.ack(got);
      assert.equal(await q.queue.depth(), 0);
    });

    test('a consumer that dies without acking: its messages go to a live consumer', async () => {
      await q.queue.enqueue(['orphan']);
      const taken = await q.queue.receive(10, 1000);
      assert.deepEqual(taken.map((m) => m.payload), ['orphan']);
      // No ack: the consumer "died". After the idle/visibility time another one gets it.
      await new Promise((r) => setTimeout(r, 400));
      const again = await drain(q.other);
      assert.deepEqual(again.map((m) => m.payload), ['orphan']);
      assert.equal(again[0].attempts, 2);
      await q.other.ack(again);
    });

    test('a message that keeps failing is dead-lettered after MAX_ATTEMPTS', async () => {
      await q.queue.enqueue(['poison']);
      let deliveries = 0;
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const got = await q.queue.receive(10, 100);
        if (got.length > 0) {
          deliveries += got.length;
          await q.queue.fail(got, 'boom');
        }
        if ((await q.deadLetters()).includes('poison')) break;
        // The table queue's back-off grows to minutes: move it along instead of waiting it out.
        await q.makeDue();
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.deepEqual(await q.deadLetters(), ['poison']);
      assert.equal(deliveries, MAX_ATTEMPTS);
      assert.deepEqual(await drain(q.queue, 300), []);
    });

    test('deadLetter sets a message aside at once', async () => {
      await q.queue.enqueue(['unreadable']);
      const got = await q.queue.receive(10, 1000);
      await q.queue.deadLetter(got, 'not JSON');
      assert.ok((await q.deadLetters()).includes('unreadable'));
      assert.deepEqual(await drain(q.queue, 300), []);
    });
  });
}
