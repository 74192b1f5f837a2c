/**
 * Issue 35 §1: the queue on a real Redis Cluster (three masters started here, on free ports).
 * Two ingest and two worker processes (plus an api for sign-up), REDIS_URL naming the cluster and
 * TRACKER_QUEUE_SHARDS=4: events of several projects sent through both edges with retries are
 * stored exactly once each. Then one master is stopped (SIGSTOP): the projects of its shards get
 * 503 + Retry-After, the others are still accepted, /readyz stays ready and names the shard; after
 * SIGCONT every event that was accepted is stored, once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createRedisThrottleStore, createRedisUsageReader, queueShardOf, quotaPeriod } from '@tracker/core';
import { createRedisRateLimiter } from '@tracker/api';
import { connectSharedRedis } from '../src/shared-redis';
import { Client } from 'pg';
import { runCli } from '../src/cli';
import { startChildServer, type ChildServer } from './child-server';
import { childEnv, createTestEnv, gqlOk, signUpWithProject, waitFor, type TestEnv } from './helpers';
import { startRedisCluster, type TestRedisCluster } from './redis-cluster';

/** 10,000 as issue 35 asks; TRACKER_TEST_CLUSTER_EVENTS lowers it on a slow machine. */
const EVENTS = Number(process.env.TRACKER_TEST_CLUSTER_EVENTS ?? 10_000);
const SHARDS = 4;
const PROJECTS = 8;

let env: TestEnv;
let cluster: TestRedisCluster;
let pg: Client;
const children: ChildServer[] = [];

before(async () => {
  cluster = await startRedisCluster(3);
  env = await createTestEnv('postgres+redis');
  assert.equal((await runCli(['migrate'], childEnv(env))).code, 0);
  pg = new Client({ connectionString: env.config.databaseUrl });
  await pg.connect();
});
after(async () => {
  await Promise.all(children.map((c) => c.kill()));
  await cluster?.stop();
  await pg?.end();
  await env?.cleanup();
});

interface Sent {
  status: number;
  retryAfter: string | null;
}

async function post(edge: string, key: string, body: unknown): Promise<Sent> {
  try {
    const res = await fetch(`${edge}/ingest/error`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `DSN ${key}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    return { status: res.status, retryAfter: res.headers.get('retry-after') };
  } catch {
    return { status: 0, retryAfter: null };
  }
}

/** Sends until an edge answers 202, alternating edges as a load balancer would; how many tries it took. */
async function sendWithRetries(edges: string[], key: string, body: unknown, first: number): Promise<number> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const r = await post(edges[(first + attempt) % edges.length], key, body);
    if (r.status === 202) return attempt + 1;
    assert.ok([0, 429, 503].includes(r.status), `unexpected status ${r.status}`);
    await new Promise((res) => setTimeout(res, 250 * Math.min(attempt + 1, 8)));
  }
  throw new Error('not accepted after 40 tries');
}

const event = (i: number) => ({
  eventId: randomUUID(),
  type: 'TypeError',
  message: `cluster test #${i}`,
  environment: 'production',
  stack: `TypeError: boom\n    at handler${i % 5} (https://app.example.com/main.js:${(i % 5) + 1}:1)`,
});

async function storedCounts(): Promise<{ n: number; distinct: number }> {
  const { rows } = await pg.query(
    'SELECT count(*)::int AS n, count(DISTINCT (project_id, event_id))::int AS distinct FROM events',
  );
  return rows[0];
}

test('the queue on a 3-master Redis Cluster: exactly once through 2 edges and 2 workers, a stopped master refuses only its shards', async () => {
  const redisEnv = {
    ...childEnv(env),
    REDIS_URL: cluster.url,
    TRACKER_QUEUE_SHARDS: String(SHARDS),
    // The plan's monthly quota is not what is tested here.
    TRACKER_DEFAULT_PLAN: 'business',
  };
  const start = (roles: string) =>
    startChildServer(redisEnv, roles, { startTimeoutMs: 120_000 }).then((c) => (children.push(c), c));
  const [api, ingestA, ingestB] = await Promise.all([
    start('api'),
    start('ingest'),
    start('ingest'),
    start('worker'),
    start('worker'),
  ]);
  const edges = [ingestA.url, ingestB.url];

  // Projects until every shard has one, so every master's shards carry traffic.
  const account = await signUpWithProject(api.url);
  const projects: Array<{ id: string; key: string; shard: number }> = [];
  const keyOf = (dsn: string) => new URL(dsn).username;
  projects.push({ id: account.project.id, key: account.key, shard: queueShardOf(account.project.id, SHARDS) });
  while (projects.length < PROJECTS || new Set(projects.map((p) => p.shard)).size < SHARDS) {
    const p = (
      await gqlOk(
        api.url,
        `mutation($org: ID!, $name: String!) { createProject(organizationId: $org, name: $name) { id dsn } }`,
        { org: account.organization.id, name: `P${projects.length}` },
        account.token,
      )
    ).createProject;
    projects.push({ id: p.id, key: keyOf(p.dsn), shard: queueShardOf(p.id, SHARDS) });
  }

  // Part 1: every event, with a tenth of them sent again through the other edge (a retry).
  const events = Array.from({ length: EVENTS }, (_, i) => ({ project: projects[i % projects.length], body: event(i) }));
  const sends = [
    ...events.map((e, i) => ({ ...e, first: i })),
    ...events.slice(0, EVENTS / 10).map((e, i) => ({ ...e, first: i + 1 })),
  ];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < sends.length) {
        const s = sends[next++];
        await sendWithRetries(edges, s.project.key, s.body, s.first);
      }
    }),
  );
  await waitFor('every event stored', async () => (await storedCounts()).n >= EVENTS, 300_000);
  assert.deepEqual(await storedCounts(), { n: EVENTS, distinct: EVENTS });

  // Part 2: the master of some (not all) shards stops answering.
  const masterOfShard = Array.from({ length: SHARDS }, (_, k) =>
    cluster.masterOf(`${env.config.redisPrefix}:jobs:{${k}}`),
  );
  const stopped = masterOfShard.find((m) => masterOfShard.some((o) => o !== m))!;
  const downShards = new Set([...masterOfShard.keys()].filter((k) => masterOfShard[k] === stopped));
  assert.ok(downShards.size > 0 && downShards.size < SHARDS, `shards on the stopped master: ${[...downShards]}`);
  const down = projects.filter((p) => downShards.has(p.shard));
  const up = projects.filter((p) => !downShards.has(p.shard));

  stopped.proc.kill('SIGSTOP');
  const acceptedDuring: string[] = [];
  const refusedDuring: Array<{ body: ReturnType<typeof event>; key: string }> = [];
  try {
    // Let the edges notice (their first enqueue to it times out), then send to both sides.
    const until = Date.now() + 8_000;
    let i = EVENTS;
    while (Date.now() < until) {
      for (const p of [...down, ...up]) {
        const body = event(i++);
        const r = await post(edges[i % 2], p.key, body);
        if (downShards.has(p.shard)) {
          assert.equal(r.status, 503, `a project of a stopped shard: ${r.status}`);
          assert.match(r.retryAfter ?? '', /^\d+$/, 'Retry-After on a 503');
          refusedDuring.push({ body, key: p.key });
        } else if (r.status === 202) acceptedDuring.push(body.eventId);
      }
    }
    assert.ok(acceptedDuring.length > 0, 'projects of the other shards are still accepted');
    const ready = await fetch(`${ingestA.url}/readyz`);
    const readiness = (await ready.json()) as { queueShards?: Record<string, string> };
    assert.equal(ready.status, 200, JSON.stringify(readiness));
    for (let k = 0; k < SHARDS; k++) {
      assert.equal(
        readiness.queueShards?.[String(k)],
        downShards.has(k) ? 'unavailable' : 'ok',
        JSON.stringify(readiness),
      );
    }
    const metrics = await (await fetch(`${ingestA.url}/metrics`)).text();
    for (const k of downShards)
      assert.match(metrics, new RegExp(`tracker_queue_shard_up\\{queue="jobs",shard="${k}"\\} 0`));
  } finally {
    stopped.proc.kill('SIGCONT');
  }

  // The refused ones, sent again as an SDK would after Retry-After.
  for (const r of refusedDuring) await sendWithRetries(edges, r.key, r.body, 0);
  const total = EVENTS + acceptedDuring.length + refusedDuring.length;
  // A read abandoned while the master was stopped leaves its entries pending until they are
  // claimed (60 s idle): allow for that.
  await waitFor(
    'every event accepted during and after the stop stored',
    async () => (await storedCounts()).n >= total,
    240_000,
  );
  assert.deepEqual(await storedCounts(), { n: total, distinct: total });
  const { rows } = await pg.query('SELECT count(*)::int AS n FROM events WHERE event_id = ANY($1::uuid[])', [
    acceptedDuring,
  ]);
  assert.equal(rows[0].n, acceptedDuring.length, 'events accepted while a master was stopped are stored');
});

test('the quota, usage, rate-limit and throttle keys work on the cluster (one slot per script)', async () => {
  const prefix = env.config.redisPrefix;
  const redis = await connectSharedRedis(cluster.url);
  try {
    // The edges counted the first test's events in the organizations' monthly keys.
    const usage = createRedisUsageReader(redis.usage, prefix);
    const active = await usage.listActive(quotaPeriod());
    assert.equal(active.size, 1, 'one organization counted (SCAN over every master)');
    const [orgId, counts] = [...active][0];
    assert.ok(counts.events >= EVENTS, `events counted: ${counts.events}`);
    assert.deepEqual(await usage.read(orgId, quotaPeriod()), counts);

    // Two windows' keys in one script: a cross-slot pair would fail here, not be let through.
    const limiter = createRedisRateLimiter(redis.rateLimit, prefix, { requests: 2, windowMs: 60_000 });
    const subject = `s-${randomUUID()}`;
    assert.deepEqual(
      [
        (await limiter.hit(subject)).allowed,
        (await limiter.hit(subject)).allowed,
        (await limiter.hit(subject)).allowed,
      ],
      [true, true, false],
    );
    const throttle = createRedisThrottleStore(redis.throttle, prefix);
    await throttle.fail('k', Date.now(), 60_000);
    assert.equal((await throttle.fail('k', Date.now(), 60_000)).failures, 2);
  } finally {
    await redis.close();
  }
});
