import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createProject, deadLetterSink, EventSymbolicator, openDatabase, signUp, type Database } from '@tracker/core';
import {
  createTempDir,
  createTestPostgres,
  createTestRedisPrefix,
  startPrivatePostgres,
  startPrivateRedis,
  TEST_REDIS_URL,
  type TempDir,
  type TestPostgres,
} from '@tracker/core/testing';
import { Client } from 'pg';
import { createClient } from 'redis';
import { DatabaseQueue, MAX_ATTEMPTS, RedisStreamQueue, type Queue, type QueueMessage } from '../src/queue';
import { startWorker, type RunningWorker } from '../src/worker/worker';

/**
 * The worker's guarantees, against real PostgreSQL, Redis and PGlite: a batch is acked only
 * after its transaction commits; a failing batch is not acked, is split to isolate the bad job,
 * and is delivered again; unreadable jobs are dead-lettered; stop() leaves nothing received and
 * unacked. The worker prepares batch N+1 while batch N's transaction runs, so these tests also
 * check that transactions still run one at a time and in order.
 */

interface Timeline {
  /** Everything the worker did, in order, as seen from its queue and DataSource. */
  entries: Array<
    | { at: number; what: 'receive'; ids: string[] }
    | { at: number; what: 'begin' | 'commit' | 'rollback' }
    | { at: number; what: 'ack'; ids: string[]; events: number; committedEvents: number }
  >;
  openTransactions: number;
  maxOpenTransactions: number;
  /** Receives that returned while a transaction was open (the overlap at work). */
  receivesDuringTransaction: number;
  /** Acks that came before all of their events were committed (must stay 0). */
  acksBeforeCommit: number;
  restore(): void;
}

/**
 * Wraps the real queue and DataSource to record what happens when. At every ack, another
 * connection counts the acked events that are committed: an ack before its commit shows as
 * a count short of the acked events.
 */
function record(queue: Queue, db: Database, countCommitted: (eventIds: string[]) => Promise<number>): Timeline {
  const ds = db.ds as any;
  const t: Timeline = {
    entries: [],
    openTransactions: 0,
    maxOpenTransactions: 0,
    receivesDuringTransaction: 0,
    acksBeforeCommit: 0,
    restore() {
      delete ds.transaction;
    },
  };
  const receive = queue.receive.bind(queue);
  queue.receive = async (max, waitMs) => {
    const messages = await receive(max, waitMs);
    if (messages.length > 0) {
      t.entries.push({ at: performance.now(), what: 'receive', ids: messages.map((m) => m.id) });
      if (t.openTransactions > 0) t.receivesDuringTransaction += 1;
    }
    return messages;
  };
  const ack = queue.ack.bind(queue);
  queue.ack = async (messages: QueueMessage[]) => {
    const eventIds = messages.map((m) => eventIdOf(m.payload)).filter((id): id is string => id !== null);
    const committedEvents = await countCommitted(eventIds);
    t.entries.push({
      at: performance.now(),
      what: 'ack',
      ids: messages.map((m) => m.id),
      events: eventIds.length,
      committedEvents,
    });
    if (committedEvents !== eventIds.length) t.acksBeforeCommit += 1;
    await ack(messages);
  };
  const transaction = ds.transaction.bind(ds);
  ds.transaction = async (...args: any[]) => {
    t.openTransactions += 1;
    t.maxOpenTransactions = Math.max(t.maxOpenTransactions, t.openTransactions);
    t.entries.push({ at: performance.now(), what: 'begin' });
    try {
      const result = await transaction(...args);
      t.entries.push({ at: performance.now(), what: 'commit' });
      return result;
    } catch (err) {
      t.entries.push({ at: performance.now(), what: 'rollback' });
      throw err;
    } finally {
      t.openTransactions -= 1;
    }
  };
  return t;
}

function eventIdOf(payload: string): string | null {
  try {
    const job = JSON.parse(payload);
    return job?.kind === 'error' && typeof job.event?.eventId === 'string' ? job.event.eventId : null;
  } catch {
    return null;
  }
}

/** A job as the edge writes it (`encodeJob` of the validated body). */
function errorJob(projectId: string, i: number, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    v: 1,
    kind: 'error',
    projectId,
    receivedAt: new Date().toISOString(),
    event: {
      eventId: randomUUID(),
      type: i % 2 ? 'TypeError' : 'RangeError',
      message: `boom ${i}`,
      environment: 'production',
      stack: `Error: boom\n    at handler${i % 3} (/srv/app/dist/handler.js:${10 + (i % 3)}:5)\n    at main (/srv/app/dist/main.js:3:1)`,
      user: { id: `u${i % 5}` },
      ...overrides,
    },
  });
}

async function waitFor<T>(what: string, check: () => Promise<T | false | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const noFailures = { receive: 0, symbolication: 0, batch: 0, message: 0, unreadable: 0, dead_lettered: 0 };

async function newProject(db: Database): Promise<string> {
  const account = await signUp(
    db.ds,
    { email: `worker-${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Worker' },
    'business',
  );
  return (await createProject(db.ds, account.user.id, account.organization.id, 'Worker')).project.id;
}

describe('worker on PostgreSQL + Redis', () => {
  let pg: TestPostgres;
  let db: Database;
  let observer: Client;
  let admin: ReturnType<typeof createClient>;
  const prefixes: string[] = [];
  const workers: RunningWorker[] = [];
  const queues: Queue[] = [];

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    observer = new Client({ connectionString: pg.url });
    await observer.connect();
    admin = createClient({ url: TEST_REDIS_URL });
    await admin.connect();
  });

  after(async () => {
    for (const w of workers) await w.stop();
    for (const q of queues) await q.close();
    for (const prefix of prefixes) {
      const keys = await admin.keys(`${prefix}:*`);
      if (keys.length > 0) await admin.del(keys);
    }
    await admin.close();
    await observer.end();
    await db.close();
    await pg.drop();
  });

  /**
   * Failed messages come back after 300 ms instead of a minute. A test that counts batches
   * exactly passes a longer idle time: on a loaded machine a batch in flight can sit pending for
   * more than 300 ms and would be reclaimed as if its worker had died (seen at load average 27).
   */
  async function openQueue(reclaimIdleMs = 300): Promise<{ queue: RedisStreamQueue; prefix: string }> {
    const prefix = createTestRedisPrefix();
    prefixes.push(prefix);
    const queue = await RedisStreamQueue.connect({
      url: TEST_REDIS_URL,
      prefix,
      reclaimIdleMs,
      deadLetters: deadLetterSink(db.ds),
    });
    queues.push(queue);
    return { queue, prefix };
  }

  const countCommitted = async (ids: string[]) =>
    ids.length === 0
      ? 0
      : (await observer.query('SELECT count(*)::int AS n FROM events WHERE event_id = ANY($1::uuid[])', [ids])).rows[0]
          .n;

  const pendingCount = async (prefix: string) => (await admin.xPending(`${prefix}:jobs`, 'workers')).pending;

  test('acks each batch only after its commit; one transaction at a time while the next batch is prepared', async () => {
    const projectId = await newProject(db);
    const { queue, prefix } = await openQueue(60_000);
    // Batches of 150: the events go in as one prepared 100-row statement and a 50-row one.
    const jobs = Array.from({ length: 1200 }, (_, i) => errorJob(projectId, i));
    await queue.enqueue(jobs);
    const timeline = record(queue, db, countCommitted);
    const worker = startWorker({ ds: db.ds, queue, batchSize: 150, waitMs: 100 });
    workers.push(worker);
    await waitFor('all events', async () => worker.stats.events === 1200);
    await worker.stop();
    timeline.restore();

    assert.deepEqual(worker.stats, {
      batches: 8,
      events: 1200,
      duplicates: 0,
      failures: 0,
      transientRetries: 0,
      relockedBatches: 0,
      deadLettered: 0,
      failuresByCause: noFailures,
      discardedByReason: { discarded_issue: 0 },
    });
    assert.equal(timeline.acksBeforeCommit, 0, 'acked before the events were committed');
    assert.equal(timeline.maxOpenTransactions, 1, 'two transactions were open at once');
    assert.ok(
      timeline.receivesDuringTransaction >= 4,
      `no overlap: ${timeline.receivesDuringTransaction} receives during a transaction`,
    );
    // Acks in the order of the commits, each after its own commit (and checked then, above).
    const order = timeline.entries.filter((e) => e.what === 'commit' || e.what === 'ack').map((e) => e.what);
    assert.deepEqual(order, Array.from({ length: 8 }, () => ['commit', 'ack']).flat());
    const received = timeline.entries.flatMap((e) => (e.what === 'receive' ? e.ids : []));
    const acked = timeline.entries.flatMap((e) => (e.what === 'ack' ? e.ids : []));
    assert.deepEqual(acked, received, 'batches acked out of the order they were received');
    assert.equal(await queue.depth(), 0);
    assert.equal(await pendingCount(prefix), 0);
    const [{ n }] = (
      await observer.query('SELECT sum(event_count)::int AS n FROM issues WHERE project_id = $1', [projectId])
    ).rows;
    assert.equal(n, 1200);
  });

  test('a batch whose transaction fails is not acked: the bad job is isolated, retried, and committed once fixed', async () => {
    const projectId = await newProject(db);
    const { queue, prefix } = await openQueue();
    // A real failure inside PostgreSQL for one job: the transaction of its batch aborts.
    await db.ds.query(`
      CREATE FUNCTION worker_test_reject() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.message = 'reject me' THEN RAISE EXCEPTION 'rejected by the test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER worker_test_reject BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION worker_test_reject();
    `);
    try {
      const jobs = Array.from({ length: 140 }, (_, i) => errorJob(projectId, i));
      const poison = errorJob(projectId, 99, { message: 'reject me' });
      const poisonId = eventIdOf(poison)!;
      jobs.splice(25, 0, poison);
      await queue.enqueue(jobs);
      const timeline = record(queue, db, countCommitted);
      const logs: string[] = [];
      const worker = startWorker({
        ds: db.ds,
        queue,
        // The bad job lands in the first batch's prepared 100-row statement.
        batchSize: 120,
        waitMs: 100,
        log: (_level, msg) => logs.push(msg),
      });
      workers.push(worker);

      // The 140 good events get through; the batch holding the bad one was split.
      await waitFor('the good events', async () => worker.stats.events === 140);
      assert.ok(logs.includes('batch failed; splitting it to find the messages that fail'));
      assert.ok(timeline.entries.some((e) => e.what === 'rollback'));
      assert.equal(await countCommitted([poisonId]), 0);
      // Not acked: still in the stream, pending, and delivered again after the idle time.
      await waitFor('a redelivery', async () => worker.stats.failures >= 2);
      assert.equal(await queue.depth(), 1);
      assert.equal(await pendingCount(prefix), 1);
      const ackedIds = new Set(timeline.entries.flatMap((e) => (e.what === 'ack' ? e.ids : [])));
      const [poisonEntry] = (await admin.xRange(`${prefix}:jobs`, '-', '+')) ?? [];
      assert.ok(poisonEntry && !ackedIds.has(poisonEntry.id));
      assert.equal(poisonEntry.message.p, poison);

      // Fixed before its last attempt: the redelivered job is committed, acked, counted once.
      await db.ds.query('DROP TRIGGER worker_test_reject ON events');
      await waitFor('the fixed job', async () => worker.stats.events === 141);
      await worker.stop();
      timeline.restore();
      assert.equal(timeline.acksBeforeCommit, 0);
      assert.ok(worker.stats.failures < MAX_ATTEMPTS);
      // The batch of 120 split down to the poison alone: at least 6 splits (120, 60, 30, 15, 7, 3).
      const byCause = worker.stats.failuresByCause;
      assert.ok(byCause.batch >= 6, `batch splits: ${byCause.batch}`);
      assert.deepEqual(byCause, { ...noFailures, batch: byCause.batch, message: worker.stats.failures });
      assert.equal(await countCommitted([poisonId]), 1);
      assert.equal(await queue.depth(), 0);
      assert.equal(await pendingCount(prefix), 0);
      assert.equal(timeline.maxOpenTransactions, 1);
      const [{ n }] = (
        await observer.query('SELECT sum(event_count)::int AS n FROM issues WHERE project_id = $1', [projectId])
      ).rows;
      assert.equal(n, 141);
    } finally {
      await db.ds.query(
        'DROP TRIGGER IF EXISTS worker_test_reject ON events; DROP FUNCTION IF EXISTS worker_test_reject()',
      );
    }
  });

  test('acks lost after the commit: the batch is delivered again and counts nothing twice', async () => {
    const projectId = await newProject(db);
    const { queue, prefix } = await openQueue();
    await queue.enqueue(Array.from({ length: 30 }, (_, i) => errorJob(projectId, i)));
    // Redis fails the first batch's ack after its commit, as if the worker had died there. The
    // messages are not at fault: they are neither failed nor split, only delivered again.
    const ack = queue.ack.bind(queue);
    let acksToFail = 1;
    queue.ack = async (messages) => {
      if (acksToFail > 0) {
        acksToFail -= 1;
        throw new Error('connection lost before the ack');
      }
      return ack(messages);
    };
    const fail = queue.fail.bind(queue);
    let fails = 0;
    queue.fail = async (messages, error) => {
      fails += messages.length;
      return fail(messages, error);
    };
    const receive = queue.receive.bind(queue);
    const redelivered: number[] = [];
    queue.receive = async (max, waitMs) => {
      const messages = await receive(max, waitMs);
      for (const m of messages) if (m.attempts > 1) redelivered.push(m.attempts);
      return messages;
    };
    const worker = startWorker({ ds: db.ds, queue, batchSize: 10, waitMs: 100 });
    workers.push(worker);
    await waitFor('the redelivered batch', async () => worker.stats.duplicates === 10);
    await worker.stop();
    assert.equal(acksToFail, 0);
    assert.equal(fails, 0);
    assert.deepEqual(redelivered, Array(10).fill(2));
    assert.deepEqual(worker.stats, {
      batches: 4,
      events: 30,
      duplicates: 10,
      failures: 0,
      transientRetries: 0,
      relockedBatches: 0,
      deadLettered: 0,
      failuresByCause: noFailures,
      discardedByReason: { discarded_issue: 0 },
    });
    assert.equal(await queue.depth(), 0);
    assert.equal(await pendingCount(prefix), 0);
    const [row] = (
      await observer.query(
        `SELECT (SELECT count(*) FROM events WHERE project_id = $1)::int AS events,
                (SELECT sum(event_count) FROM issues WHERE project_id = $1)::int AS counted,
                (SELECT sum(user_count) FROM issues WHERE project_id = $1)::int AS users`,
        [projectId],
      )
    ).rows;
    // 6 issues (type by i % 2, top frame by i % 3), users by i % 5: 30 distinct issue/user pairs.
    assert.deepEqual(row, { events: 30, counted: 30, users: 30 });
  });

  test('unreadable jobs are dead-lettered, the rest of their batch is committed', async () => {
    const projectId = await newProject(db);
    const { queue, prefix } = await openQueue();
    const bad = ['not json', JSON.stringify({ v: 2, kind: 'error' }), errorJob(projectId, 0, { environment: '' })];
    await queue.enqueue([errorJob(projectId, 1), ...bad, errorJob(projectId, 2)]);
    const worker = startWorker({ ds: db.ds, queue, batchSize: 10, waitMs: 100 });
    workers.push(worker);
    await waitFor('the readable jobs', async () => worker.stats.events === 2);
    await waitFor('the stream to drain', async () => (await queue.depth()) === 0);
    await worker.stop();
    const dead = (
      await observer.query(`SELECT payload, error, attempts FROM dead_letters WHERE payload = ANY($1::text[])`, [bad])
    ).rows;
    assert.deepEqual(dead.map((d) => d.payload).sort(), [...bad].sort());
    assert.ok(dead.every((d) => d.error.length > 0 && d.attempts === 1));
    assert.equal(await pendingCount(prefix), 0);
    assert.equal(worker.stats.failures, 0);
    assert.equal(worker.stats.deadLettered, 3);
    assert.deepEqual(worker.stats.failuresByCause, { ...noFailures, unreadable: 3 });
  });

  test('maps that cannot be read count a symbolication failure; the batch is retried in hand and stored', async () => {
    // The symbolicator reads its maps from a PostgreSQL of its own, stopped for real.
    const maps = await startPrivatePostgres();
    const mapsDb = await openDatabase({ databaseUrl: maps.url, dataDir: '' }, { migrate: true });
    const projectId = await newProject(db);
    const { queue } = await openQueue();
    await maps.stop();
    await queue.enqueue(Array.from({ length: 5 }, (_, i) => errorJob(projectId, i, { release: 'v1.0.0' })));
    const worker = startWorker({
      ds: db.ds,
      queue,
      batchSize: 10,
      waitMs: 100,
      symbolicator: new EventSymbolicator(mapsDb.ds, { maxCacheBytes: 1_000_000 }),
      transientBackoff: () => 200,
    });
    try {
      await waitFor('a symbolication failure', async () => worker.stats.failuresByCause.symbolication >= 1);
      await maps.start();
      await waitFor('the events', async () => worker.stats.events === 5, 30_000);
      const byCause = worker.stats.failuresByCause;
      assert.deepEqual(byCause, { ...noFailures, symbolication: byCause.symbolication });
      assert.equal(worker.stats.deadLettered, 0);
      assert.ok(worker.stats.transientRetries >= 1);
    } finally {
      await worker.stop();
      await mapsDb.close();
      await maps.close();
    }
  });

  test('a Redis that stops answering counts a receive failure; the worker carries on once it answers', async () => {
    const redis = await startPrivateRedis();
    const projectId = await newProject(db);
    const queue = await RedisStreamQueue.connect({
      url: redis.url,
      prefix: createTestRedisPrefix(),
      reclaimIdleMs: 300,
      deadLetters: deadLetterSink(db.ds),
    });
    const worker = startWorker({ ds: db.ds, queue, batchSize: 10, waitMs: 100 });
    try {
      await queue.enqueue([errorJob(projectId, 0)]);
      await waitFor('the first event', async () => worker.stats.events === 1);
      assert.equal(worker.stats.failuresByCause.receive, 0);
      redis.freeze();
      await waitFor('a failed receive', async () => worker.stats.failuresByCause.receive >= 1);
      redis.thaw();
      await queue.enqueue([errorJob(projectId, 1)]);
      await waitFor('the event sent after the thaw', async () => worker.stats.events === 2);
      const byCause = worker.stats.failuresByCause;
      assert.deepEqual(byCause, { ...noFailures, receive: byCause.receive });
    } finally {
      await worker.stop();
      await queue.close();
      await redis.close();
    }
  });

  test('deleting an issue or a project still deletes its events (events keep only the foreign key to issues)', async () => {
    const projectId = await newProject(db);
    const { queue } = await openQueue();
    await queue.enqueue(Array.from({ length: 12 }, (_, i) => errorJob(projectId, i)));
    const worker = startWorker({ ds: db.ds, queue, batchSize: 50, waitMs: 100 });
    await waitFor('the events', async () => worker.stats.events === 12);
    await worker.stop();
    const count = async () =>
      (await observer.query('SELECT count(*)::int AS n FROM events WHERE project_id = $1', [projectId])).rows[0].n;
    assert.equal(await count(), 12);
    const [issue] = (
      await observer.query('SELECT id, event_count::int AS n FROM issues WHERE project_id = $1 LIMIT 1', [projectId])
    ).rows;
    await observer.query('DELETE FROM issues WHERE id = $1', [issue.id]);
    assert.equal(await count(), 12 - issue.n);
    await observer.query('DELETE FROM projects WHERE id = $1', [projectId]);
    assert.equal(await count(), 0);
  });

  test('stop() finishes the batches in hand: nothing received is left unacked', async () => {
    const projectId = await newProject(db);
    const { queue, prefix } = await openQueue();
    await queue.enqueue(Array.from({ length: 400 }, (_, i) => errorJob(projectId, i)));
    const timeline = record(queue, db, countCommitted);
    const worker = startWorker({ ds: db.ds, queue, batchSize: 25, waitMs: 100 });
    await waitFor('a first commit', async () => worker.stats.batches >= 1);
    await worker.stop();
    timeline.restore();
    const received = timeline.entries.flatMap((e) => (e.what === 'receive' ? e.ids : []));
    const acked = timeline.entries.flatMap((e) => (e.what === 'ack' ? e.ids : []));
    assert.ok(received.length > 25, 'stopped before a second batch was in hand: nothing to drain');
    assert.deepEqual(acked, received);
    assert.equal(timeline.acksBeforeCommit, 0);
    assert.equal(await pendingCount(prefix), 0);
    assert.ok(worker.stats.events < 400, 'the worker was stopped too late to test anything');
    assert.equal(worker.stats.events, received.length);
    assert.equal(await queue.depth(), 400 - worker.stats.events);
    const [{ n }] = (await observer.query('SELECT count(*)::int AS n FROM events WHERE project_id = $1', [projectId]))
      .rows;
    assert.equal(n, worker.stats.events);
  });
});

describe('worker on embedded PGlite with the database queue', () => {
  let dir: TempDir;
  let db: Database;
  let queue: DatabaseQueue;

  before(async () => {
    dir = createTempDir('tracker-worker-test-');
    db = await openDatabase({ databaseUrl: undefined, dataDir: dir.path }, { migrate: true });
    queue = await DatabaseQueue.open(db.ds, { releaseLocksOnStart: true, pollMs: 20, visibilityMs: 300 });
  });

  after(async () => {
    await queue.close();
    await db.close();
    dir.remove();
  });

  test('one connection: the queue is never used while a transaction is open, and failures still split', async () => {
    const projectId = await newProject(db);
    const jobs = Array.from({ length: 120 }, (_, i) => errorJob(projectId, i));
    jobs.splice(70, 0, errorJob(projectId, 999, { message: 'reject me' }));
    await db.ds.query(`
      CREATE FUNCTION worker_test_reject() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.message = 'reject me' THEN RAISE EXCEPTION 'rejected by the test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER worker_test_reject BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION worker_test_reject();
    `);
    await queue.enqueue(jobs);
    // Queue calls and transactions must never be in flight at the same time.
    let inTransaction = false;
    let queueCallsInFlight = 0;
    let overlaps = 0;
    for (const method of ['receive', 'ack', 'fail', 'deadLetter'] as const) {
      const original = (queue[method] as (...a: any[]) => Promise<any>).bind(queue);
      (queue as any)[method] = async (...a: any[]) => {
        if (inTransaction) overlaps += 1;
        queueCallsInFlight += 1;
        try {
          return await original(...a);
        } finally {
          queueCallsInFlight -= 1;
        }
      };
    }
    const ds = db.ds as any;
    const transaction = ds.transaction.bind(ds);
    ds.transaction = async (...a: any[]) => {
      if (queueCallsInFlight > 0) overlaps += 1;
      inTransaction = true;
      try {
        return await transaction(...a);
      } finally {
        inTransaction = false;
      }
    };
    // Fixed batches of 40 (no sizing by time), so the bad job's batch splits a known number of times.
    const worker = startWorker({ ds: db.ds, queue, batchSize: 40, waitMs: 100, transactionTargetMs: 0 });
    try {
      await waitFor('the good events', async () => worker.stats.events === 120, 60_000);
      await waitFor(
        'the failure to be recorded',
        async () =>
          (await db.ds.query(`SELECT count(*)::int AS n FROM queue_jobs WHERE last_error IS NOT NULL`))[0].n === 1,
      );
      const byCause = worker.stats.failuresByCause;
      assert.ok(byCause.batch >= 5, `batch splits: ${byCause.batch}`);
      assert.ok(byCause.message >= 1);
      assert.deepEqual(byCause, { ...noFailures, batch: byCause.batch, message: byCause.message });
    } finally {
      await worker.stop();
      delete ds.transaction;
      await db.ds.query(
        'DROP TRIGGER IF EXISTS worker_test_reject ON events; DROP FUNCTION IF EXISTS worker_test_reject()',
      );
    }
    assert.equal(overlaps, 0);
    const [{ n }] = await db.ds.query('SELECT count(*)::int AS n FROM events');
    assert.equal(n, 120);
  });

  test('batches are sized by time: the edge never waits for a long transaction on the one connection', async () => {
    const projectId = await newProject(db);
    await queue.enqueue(Array.from({ length: 600 }, (_, i) => errorJob(projectId, 2_000 + i)));
    const sizes: number[] = [];
    const receive = queue.receive.bind(queue);
    (queue as any).receive = async (max: number, waitMs: number) => {
      sizes.push(max);
      return receive(max, waitMs);
    };
    const transactions: number[] = [];
    const ds = db.ds as any;
    const transaction = ds.transaction.bind(ds);
    ds.transaction = async (...a: any[]) => {
      const started = performance.now();
      try {
        return await transaction(...a);
      } finally {
        transactions.push(performance.now() - started);
      }
    };
    // The default on a one-connection database (20 ms), under a batch size that would take all 600 at once.
    const worker = startWorker({ ds: db.ds, queue, batchSize: 500, waitMs: 100 });
    try {
      // Counted in the table: the first test's rejected job may come back and be stored meanwhile.
      const stored = async () =>
        (await db.ds.query('SELECT count(*)::int AS n FROM events WHERE project_id = $1', [projectId]))[0].n;
      await waitFor('the events', async () => (await stored()) === 600, 60_000);
    } finally {
      await worker.stop();
      delete (queue as any).receive;
      delete ds.transaction;
    }
    assert.equal(sizes[0], 10, `the first batch, before any was timed: ${sizes[0]}`);
    assert.ok(sizes.length >= 6, `600 events in ${sizes.length} receives: ${sizes.join(' ')}`);
    assert.ok(Math.max(...sizes) < 500, `no batch of the full size: ${sizes.join(' ')}`);
    // Each transaction near the target: generous (a busy machine), but far below one of 500 events.
    const sorted = [...transactions].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    assert.ok(median < 200, `median transaction ${median.toFixed(1)} ms`);
  });

  test('a queue that cannot be read counts a receive failure; the worker carries on once it can', async () => {
    const projectId = await newProject(db);
    const worker = startWorker({ ds: db.ds, queue, batchSize: 10, waitMs: 100 });
    const stored = async () =>
      (await db.ds.query('SELECT count(*)::int AS n FROM events WHERE project_id = $1', [projectId]))[0].n;
    try {
      await queue.enqueue([errorJob(projectId, 0)]);
      await waitFor('the first event', async () => (await stored()) === 1);
      // The queue's table out of reach: every read fails, as on a broken database queue.
      await db.ds.query('ALTER TABLE queue_jobs RENAME TO queue_jobs_away');
      try {
        await waitFor('a failed receive', async () => worker.stats.failuresByCause.receive >= 1);
      } finally {
        await db.ds.query('ALTER TABLE queue_jobs_away RENAME TO queue_jobs');
      }
      await queue.enqueue([errorJob(projectId, 1)]);
      await waitFor('the event queued after', async () => (await stored()) === 2);
      const byCause = worker.stats.failuresByCause;
      assert.deepEqual(byCause, { ...noFailures, receive: byCause.receive });
    } finally {
      await worker.stop();
    }
  });
});

describe('worker through a PostgreSQL restart: retried in hand, nothing set aside', () => {
  for (const queueKind of ['redis', 'database'] as const) {
    test(`${queueKind} queue: every event stored once, no dead letter, no failure counted`, async () => {
      const pg = await startPrivatePostgres();
      const db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
      const prefix = createTestRedisPrefix();
      const queue: Queue =
        queueKind === 'redis'
          ? await RedisStreamQueue.connect({
              url: TEST_REDIS_URL,
              prefix,
              reclaimIdleMs: 300,
              deadLetters: deadLetterSink(db.ds),
            })
          : await DatabaseQueue.open(db.ds, { pollMs: 20, visibilityMs: 2_000 });
      const logs: string[] = [];
      let worker: RunningWorker | undefined;
      try {
        const projectId = await newProject(db);
        await queue.enqueue(Array.from({ length: 1500 }, (_, i) => errorJob(projectId, i)));
        worker = startWorker({
          ds: db.ds,
          queue,
          batchSize: 50,
          waitMs: 100,
          transientBackoff: () => 200,
          log: (_level, msg) => logs.push(msg),
        });
        await waitFor('a first commit', async () => worker!.stats.batches >= 2);
        // A real restart: the server goes away under the pool's connections mid-work.
        await pg.stop();
        await new Promise((r) => setTimeout(r, 1_500));
        await pg.start();
        await waitFor('every event', async () => worker!.stats.events === 1500, 60_000);
        await worker.stop();
        assert.ok(
          logs.includes('database or queue unavailable; retrying the batch in hand'),
          'no transient retry happened',
        );
        assert.equal(worker.stats.deadLettered, 0);
        assert.equal(worker.stats.failures, 0, 'a message was failed for the outage');
        const [row] = await db.ds.query(
          `SELECT (SELECT count(*) FROM events WHERE project_id = $1)::int AS events,
                  (SELECT sum(event_count) FROM issues WHERE project_id = $1)::int AS counted,
                  (SELECT count(*) FROM dead_letters)::int AS dead`,
          [projectId],
        );
        assert.deepEqual(row, { events: 1500, counted: 1500, dead: 0 });
      } finally {
        await worker?.stop();
        await queue.close();
        await db.close();
        await pg.close();
        if (queueKind === 'redis') {
          const admin = createClient({ url: TEST_REDIS_URL });
          await admin.connect();
          const keys = await admin.keys(`${prefix}:*`);
          if (keys.length > 0) await admin.del(keys);
          await admin.close();
        }
      }
    });
  }
});
