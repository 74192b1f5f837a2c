import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { deadLetterSink, openDatabase, type Database } from '@tracker/core';
import { createTestPostgres, createTestRedisPrefix, TEST_REDIS_URL } from '@tracker/core/testing';
import { createClient } from 'redis';
import { DatabaseQueue, MAX_ATTEMPTS, RedisStreamQueue, ShardedQueue, type Queue } from '../src/queue';

interface Backend {
  name: string;
  /** A queue, and a second consumer of the same queue (another worker process). */
  open(): Promise<{
    queue: Queue;
    other: Queue;
    /** Payloads in the dead_letters table, oldest first. */
    deadLetters(): Promise<string[]>;
    /** The dead_letters row of a payload. */
    deadLetter(payload: string): Promise<DeadRow | undefined>;
    /** Appends to the stream where versions before the dead_letters table put dead messages (Redis only). */
    legacyDeadLetter?(payload: string, error: string): Promise<void>;
    /** Another connection to the same queue, opened now. */
    reconnect(): Promise<Queue>;
    /** Makes failed messages due now instead of after their back-off (a no-op where there is none). */
    makeDue(): Promise<void>;
    close(): Promise<void>;
  }>;
}

interface DeadRow {
  topic: string;
  error: string;
  attempts: number;
  project_id: string | null;
  kind: string | null;
  item_id: string | null;
  first_failed_at: Date;
  last_failed_at: Date;
}

/** Dead letters go to the dead_letters table on both backends: each test suite has its own database. */
async function openTestDatabase() {
  const pg = await createTestPostgres();
  const db: Database = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
  return {
    db,
    deadLetters: async () =>
      (await db.ds.query('SELECT payload FROM dead_letters ORDER BY id')).map((r: { payload: string }) => r.payload),
    deadLetter: async (payload: string) =>
      (await db.ds.query('SELECT * FROM dead_letters WHERE payload = $1', [payload]))[0] as DeadRow | undefined,
    drop: async () => {
      await db.close();
      await pg.drop();
    },
  };
}

/** The Redis backend with one stream, or spread over shards (decision 068): the same contract. */
function redisBackend(shards: number): Backend {
  return {
    name: shards === 1 ? 'Redis stream' : `Redis streams, ${shards} shards`,
    async open() {
      const database = await openTestDatabase();
      const prefix = createTestRedisPrefix();
      const options = { url: TEST_REDIS_URL, prefix, reclaimIdleMs: 200, deadLetters: deadLetterSink(database.db.ds) };
      const connect = (): Promise<Queue> =>
        shards === 1 ? RedisStreamQueue.connect(options) : ShardedQueue.connect({ ...options, shards });
      const queue = await connect();
      const other = await connect();
      const opened: Queue[] = [];
      const admin = createClient({ url: TEST_REDIS_URL });
      await admin.connect();
      return {
        queue,
        other,
        makeDue: async () => undefined,
        deadLetters: database.deadLetters,
        deadLetter: database.deadLetter,
        legacyDeadLetter: async (payload, error) => {
          await admin.xAdd(`${prefix}:jobs:dead`, '*', { p: payload, id: '1-0', error });
        },
        reconnect: async () => {
          const q = await connect();
          opened.push(q);
          return q;
        },
        close: async () => {
          for (const q of [queue, other, ...opened]) await q.close();
          for (const key of await admin.keys(`${prefix}:*`)) await admin.del(key);
          await admin.close();
          await database.drop();
        },
      };
    },
  };
}

const backends: Backend[] = [
  redisBackend(1),
  redisBackend(4),
  {
    name: 'database table (PostgreSQL)',
    async open() {
      const database = await openTestDatabase();
      const { db } = database;
      const queue = await DatabaseQueue.open(db.ds, { visibilityMs: 200, pollMs: 20 });
      const other = await DatabaseQueue.open(db.ds, { visibilityMs: 200, pollMs: 20 });
      return {
        queue,
        other,
        makeDue: async () => {
          await db.ds.query('UPDATE queue_jobs SET available_at = now()');
        },
        deadLetters: database.deadLetters,
        deadLetter: database.deadLetter,
        reconnect: () => DatabaseQueue.open(db.ds, { visibilityMs: 200, pollMs: 20 }),
        close: async () => {
          await queue.close();
          await other.close();
          await database.drop();
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
      assert.deepEqual(
        got.map((m) => m.payload),
        ['a', 'b', 'c'],
      );
      assert.ok(got.every((m) => m.attempts === 1));
      assert.deepEqual(await q.other.receive(10, 50), [], 'in flight: not visible to another consumer');
      await q.queue.ack(got);
      assert.equal(await q.queue.depth(), 0);
    });

    test('a consumer that dies without acking: its messages go to a live consumer', async () => {
      await q.queue.enqueue(['orphan']);
      const taken = await q.queue.receive(10, 1000);
      assert.deepEqual(
        taken.map((m) => m.payload),
        ['orphan'],
      );
      // No ack: the consumer "died". After the idle/visibility time another one gets it.
      await new Promise((r) => setTimeout(r, 400));
      const again = await drain(q.other);
      assert.deepEqual(
        again.map((m) => m.payload),
        ['orphan'],
      );
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
      const row = await q.deadLetter('poison');
      assert.equal(row?.error, 'boom');
      assert.equal(row?.topic, 'jobs');
      assert.equal(row?.attempts, MAX_ATTEMPTS);
      assert.ok(row!.first_failed_at.getTime() < row!.last_failed_at.getTime(), 'first and last failure are the same');
    });

    test('deadLetter sets a message aside at once, with what can be read of its job', async () => {
      const job = JSON.stringify({
        v: 1,
        kind: 'log',
        projectId: '7c1f0e2a-1b2c-4d5e-8f90-123456789abc',
        receivedAt: new Date().toISOString(),
        log: { id: '0b6a2c3d-4e5f-4a1b-9c8d-7e6f5a4b3c2d', message: 'x\u0000y' },
      });
      await q.queue.enqueue(['unreadable', job]);
      const got = await q.queue.receive(10, 1000);
      await q.queue.deadLetter(got, 'cannot read: \u0000 in the message');
      assert.deepEqual((await q.deadLetters()).slice(-2), ['unreadable', job]);
      assert.deepEqual(await drain(q.queue, 300), []);
      const row = await q.deadLetter(job);
      assert.equal(row?.project_id, '7c1f0e2a-1b2c-4d5e-8f90-123456789abc');
      assert.equal(row?.kind, 'log');
      assert.equal(row?.item_id, '0b6a2c3d-4e5f-4a1b-9c8d-7e6f5a4b3c2d');
      assert.equal(row?.error, 'cannot read: \uFFFD in the message', 'a NUL in the error must not fail the insert');
      assert.equal((await q.deadLetter('unreadable'))?.project_id, null);
    });

    test('a message whose consumer dies on it MAX_ATTEMPTS times is set aside, not delivered again', async () => {
      await q.queue.enqueue(['crasher']);
      for (let i = 1; i <= MAX_ATTEMPTS; i++) {
        const [m] = await drainUntil(q.other, 'crasher');
        assert.equal(m.attempts, i);
        // No ack, no fail: the process died on it. Wait out the idle time.
        await new Promise((r) => setTimeout(r, 250));
      }
      await q.makeDue();
      assert.deepEqual(await drain(q.other, 300), []);
      const row = await q.deadLetter('crasher');
      assert.match(row?.error ?? '', /delivered 5 times without an ack/);
    });

    test('extend keeps a message in hand without counting a delivery', async () => {
      await q.queue.enqueue(['slow']);
      const [m] = await drainUntil(q.queue, 'slow');
      for (let i = 0; i < 4; i++) {
        await new Promise((r) => setTimeout(r, 120));
        await q.queue.extend([m]);
        assert.deepEqual(await q.other.receive(10, 20), [], 'taken over while extended');
      }
      await new Promise((r) => setTimeout(r, 400));
      const [again] = await drainUntil(q.other, 'slow');
      assert.equal(again.attempts, 2);
      await q.other.ack([again]);
    });

    if (backend.name === 'Redis stream') {
      test('dead letters of the stream used before the table move into the table on connect', async () => {
        await q.legacyDeadLetter!('from-before', 'old reason');
        await q.reconnect();
        const row = await q.deadLetter('from-before');
        assert.equal(row?.error, 'old reason');
      });
    }

    async function drainUntil(queue: Queue, payload: string) {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const got = await queue.receive(10, 100);
        const mine = got.filter((m) => m.payload === payload);
        if (mine.length > 0) return mine;
      }
      throw new Error(`never received ${payload}`);
    }
  });
}
