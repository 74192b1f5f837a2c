/**
 * The jobs queue over four Redis streams on one plain Redis (decision 068): each project's jobs in
 * one shard and in order, every shard drained (and the one-stream deployment's stream too), dead
 * letters named by their shard, and the per-shard states `/metrics` reports.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { countDeadLettersByStream, deadLetterSink, openDatabase, queueStreamKeys, type Database } from '@tracker/core';
import { createTestPostgres, createTestRedisPrefix, TEST_REDIS_URL, type TestPostgres } from '@tracker/core/testing';
import { createClient } from 'redis';
import { MAX_ATTEMPTS, ShardedQueue, type QueueMessage } from '../src/queue';

const SHARDS = 4;
const JOBS_PER_PROJECT = 60;

let pg: TestPostgres;
let db: Database;
const prefix = createTestRedisPrefix();
const admin = createClient({ url: TEST_REDIS_URL });
const opened: ShardedQueue[] = [];

const connect = async () => {
  const q = await ShardedQueue.connect({
    url: TEST_REDIS_URL,
    prefix,
    shards: SHARDS,
    reclaimIdleMs: 200,
    deadLetters: deadLetterSink(db.ds),
  });
  opened.push(q);
  return q;
};

const job = (projectId: string, seq: number) => `{"v":1,"kind":"log","projectId":"${projectId}","log":{"seq":${seq}}}`;
const seqOf = (payload: string) => (JSON.parse(payload) as { log: { seq: number } }).log.seq;
const projectOf = (payload: string) => (JSON.parse(payload) as { projectId: string }).projectId;

before(async () => {
  pg = await createTestPostgres();
  db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
  await admin.connect();
});
after(async () => {
  for (const q of opened) await q.close();
  for (const key of await admin.keys(`${prefix}:*`)) await admin.del(key);
  await admin.close();
  await db.close();
  await pg.drop();
});

async function drainAll(q: ShardedQueue, expected: number, ack = true): Promise<QueueMessage[]> {
  const got: QueueMessage[] = [];
  const deadline = Date.now() + 30_000;
  while (got.length < expected && Date.now() < deadline) {
    const batch = await q.receive(50, 100);
    got.push(...batch);
    if (ack) await q.ack(batch);
  }
  return got;
}

test("keeps each project's jobs in one shard and in order, and drains every shard", async () => {
  const q = await connect();
  // Projects until every shard has two: the hash must spread, and every shard must be read.
  const projects: string[] = [];
  const perShard = new Map<number, number>();
  while ([...Array(SHARDS).keys()].some((k) => (perShard.get(k) ?? 0) < 2)) {
    const id = randomUUID();
    projects.push(id);
    perShard.set(q.shardOf(id), (perShard.get(q.shardOf(id)) ?? 0) + 1);
  }
  // Interleaved, in many small enqueues (as edges do), and some mixed ones (filter counts).
  for (let seq = 0; seq < JOBS_PER_PROJECT; seq++) {
    if (seq % 10 === 0) await q.enqueue(projects.map((p) => job(p, seq)));
    else await Promise.all(projects.map((p) => q.enqueue([job(p, seq)])));
  }
  const total = projects.length * JOBS_PER_PROJECT;
  const got = await drainAll(q, total);
  assert.equal(got.length, total);

  const seen = new Map<string, number[]>();
  for (const m of got) {
    const list = seen.get(projectOf(m.payload)) ?? [];
    list.push(seqOf(m.payload));
    seen.set(projectOf(m.payload), list);
  }
  for (const p of projects) {
    assert.deepEqual(seen.get(p), [...Array(JOBS_PER_PROJECT).keys()], `project ${p} in order`);
  }
  // Each stream holds the projects of its shard only: read what the acked entries' ids name.
  for (const m of got) {
    const shard = Number(m.id.split('/')[0]);
    assert.equal(shard, q.shardOf(projectOf(m.payload)));
  }
  const streams = queueStreamKeys(prefix, SHARDS);
  for (const s of streams) {
    assert.equal(await admin.xLen(s), 0, `${s} drained`);
    assert.equal((await admin.xPending(s, 'workers')).pending, 0, `${s} has nothing pending`);
  }
  assert.equal(await q.depth(), 0);
});

test("reads the one-stream deployment's backlog after the switch to shards", async () => {
  const q = await connect();
  const legacy = queueStreamKeys(prefix, 1)[0];
  const old = job(randomUUID(), 7);
  await admin.xAdd(legacy, '*', { p: old });
  const got = await drainAll(q, 1);
  assert.deepEqual(
    got.map((m) => m.payload),
    [old],
  );
  assert.equal(await admin.xLen(legacy), 0);
});

test('two consumers share the shards, each job delivered to one of them', async () => {
  // The earlier tests' consumers still hold blocking reads: they would take a share and sit on it.
  for (const q of opened.splice(0)) await q.close();
  const [a, b] = [await connect(), await connect()];
  const ids = Array.from({ length: 40 }, () => randomUUID());
  await Promise.all(ids.map((p) => a.enqueue([job(p, 0)])));
  const got: QueueMessage[] = [];
  const deadline = Date.now() + 30_000;
  while (got.length < ids.length && Date.now() < deadline) {
    const [x, y] = await Promise.all([a.receive(5, 100), b.receive(5, 100)]);
    await Promise.all([a.ack(x), b.ack(y)]);
    got.push(...x, ...y);
  }
  // At least once: with a 200 ms claim time a job waiting in one consumer's hand may be claimed by
  // the other too, so the check is on the set.
  assert.deepEqual([...new Set(got.map((m) => projectOf(m.payload)))].sort(), [...ids].sort());
});

test('a job that keeps failing becomes a dead letter named by its shard; the states count per shard', async () => {
  const q = await connect();
  let project = randomUUID();
  while (q.shardOf(project) !== 2) project = randomUUID();
  const poison = job(project, 999);
  await q.enqueue([poison, job(project, 1000)]);
  const before = await q.states(1_000);
  assert.deepEqual(
    before.map((s) => [s.shard, s.depth]),
    [
      ['0', 0],
      ['1', 0],
      ['2', 2],
      ['3', 0],
      ['legacy', 0],
    ],
  );
  let deliveries = 0;
  const deadline = Date.now() + 60_000;
  for (;;) {
    assert.ok(Date.now() < deadline, 'dead-lettered in time');
    const got = await q.receive(10, 100);
    await q.ack(got.filter((m) => m.payload !== poison));
    const bad = got.filter((m) => m.payload === poison);
    deliveries += bad.length;
    if (bad.length > 0) await q.fail(bad, 'boom');
    const rows = await db.ds.query('SELECT message_id, attempts, error FROM dead_letters WHERE payload = $1', [poison]);
    if (rows.length > 0) {
      assert.match(rows[0].message_id, new RegExp(`^redis:${prefix}:jobs:\\{2\\}:\\d+-\\d+$`));
      assert.equal(rows[0].attempts, MAX_ATTEMPTS);
      assert.equal(rows[0].error, 'boom');
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(deliveries, MAX_ATTEMPTS);
  const byStream = await countDeadLettersByStream(db.ds);
  assert.equal(byStream.get(`${prefix}:jobs:{2}`), 1);
  assert.equal(byStream.get(`${prefix}:jobs:{0}`), undefined);
  assert.deepEqual(
    (await q.states(1_000)).map((s) => s.depth),
    [0, 0, 0, 0, 0],
  );
  assert.deepEqual(await q.pingShards(1_000), { 0: 'ok', 1: 'ok', 2: 'ok', 3: 'ok' });
});
