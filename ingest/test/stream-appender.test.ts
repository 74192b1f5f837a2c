import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createTestRedisPrefix, TEST_REDIS_URL } from '@tracker/core/testing';
import { createClient } from 'redis';
import { StreamAppender, type AppendGroup } from '../src/queue/stream-appender';

/**
 * The queue's own XADD connection (src/queue/stream-appender.ts) against real Redis servers:
 * the shared test server, one started here with a password, and a proxy that cuts answers
 * into single bytes or drops the connection.
 */

function group(payloads: Array<string | Buffer>): { g: AppendGroup; done: Promise<void> } {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { g: { payloads, resolve, reject }, done };
}

async function appendAll(appender: StreamAppender, calls: Array<Array<string | Buffer>>) {
  const groups = calls.map(group);
  appender.append(groups.map((x) => x.g));
  return Promise.allSettled(groups.map((x) => x.done));
}

/** A TCP proxy to Redis; answers are sent on byte by byte (each its own write) when `trickle`. */
async function startProxy(port: number, trickle: boolean) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port });
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', async (chunk: Buffer) => {
      if (!trickle) return void client.write(chunk);
      upstream.pause();
      for (const byte of chunk) {
        client.write(Buffer.from([byte]));
        await new Promise((r) => setImmediate(r));
      }
      upstream.resume();
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropConnections: () => sockets.forEach((s) => s.destroy()),
    close: () =>
      new Promise<void>((r) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => r());
      }),
  };
}

const TEST_PORT = Number(new URL(TEST_REDIS_URL).port || 6379);

describe('StreamAppender', () => {
  const admin = createClient({ url: TEST_REDIS_URL });
  const prefix = createTestRedisPrefix();
  before(() => admin.connect());
  after(async () => {
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length > 0) await admin.del(keys);
    await admin.close();
  });

  const entries = async (stream: string) =>
    ((await admin.xRange(stream, '-', '+')) ?? []).map((e) => e!.message.p);

  test('answers cut into single bytes: every group settles once its own entries are stored', async () => {
    const proxy = await startProxy(TEST_PORT, true);
    const stream = `${prefix}:trickle`;
    const appender = new StreamAppender(proxy.url, stream);
    try {
      const bytes = Buffer.from('{"m":"héllo → 日本"}');
      const outcomes = await appendAll(appender, [['a'], ['b', 'c', bytes], [], ['d']]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
      );
      assert.deepEqual(await entries(stream), ['a', 'b', 'c', bytes.toString('utf8'), 'd']);
      // A second flush on the same connection.
      assert.deepEqual((await appendAll(appender, [['e']])).map((o) => o.status), ['fulfilled']);
      assert.deepEqual((await entries(stream)).at(-1), 'e');
    } finally {
      await appender.close();
      await proxy.close();
    }
  });

  test('a refused entry (wrong key type) fails its group with Redis’s message', async () => {
    const stream = `${prefix}:not-a-stream`;
    await admin.set(stream, 'a string');
    const appender = new StreamAppender(TEST_REDIS_URL, stream);
    try {
      const [outcome] = await appendAll(appender, [['x']]);
      assert.equal(outcome.status, 'rejected');
      assert.match(String((outcome as PromiseRejectedResult).reason), /WRONGTYPE/);
    } finally {
      await appender.close();
    }
  });

  test('a lost connection fails the groups waiting; the next flush connects again', async () => {
    const proxy = await startProxy(TEST_PORT, false);
    const stream = `${prefix}:lost`;
    const appender = new StreamAppender(proxy.url, stream);
    try {
      assert.equal((await appendAll(appender, [['1']]))[0].status, 'fulfilled');
      const waiting = group(['2']);
      appender.append([waiting.g]);
      proxy.dropConnections();
      // Either Redis answered before the drop, or the group fails: never left hanging.
      const [first] = await Promise.allSettled([waiting.done]);
      if (first.status === 'rejected') assert.match(String(first.reason), /lost|connect/);
      await new Promise((r) => setTimeout(r, 20));
      assert.equal((await appendAll(appender, [['3']]))[0].status, 'fulfilled');
      assert.deepEqual((await entries(stream)).at(-1), '3');
    } finally {
      await appender.close();
      await proxy.close();
    }
  });

  test('nothing listening: callers fail at once, and during the back-off without a new attempt', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const appender = new StreamAppender(`redis://127.0.0.1:${port}`, `${prefix}:nowhere`);
    try {
      const [first] = await appendAll(appender, [['x']]);
      assert.match(String((first as PromiseRejectedResult).reason), /could not connect/);
      const [second] = await appendAll(appender, [['y']]);
      assert.match(String((second as PromiseRejectedResult).reason), /unreachable/);
    } finally {
      await appender.close();
    }
  });

  describe('a Redis server with a password, database 3', () => {
    let server: ChildProcess;
    let port: number;
    before(async () => {
      const probe = createServer();
      await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
      port = (probe.address() as AddressInfo).port;
      await new Promise<void>((r) => probe.close(() => r()));
      server = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--requirepass', 's3cret', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      const client = createClient({ url: `redis://:s3cret@127.0.0.1:${port}` });
      client.on('error', () => undefined);
      for (let i = 0; ; i++) {
        try {
          await client.connect();
          break;
        } catch (err) {
          if (i > 50) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      await client.close();
    });
    after(() => {
      server?.kill('SIGKILL');
    });

    test('AUTH and SELECT from the URL go first; the entries land in that database', async () => {
      const appender = new StreamAppender(`redis://:s3cret@127.0.0.1:${port}/3`, 'jobs');
      const reader = createClient({ url: `redis://:s3cret@127.0.0.1:${port}/3` });
      try {
        assert.deepEqual((await appendAll(appender, [['p1'], ['p2']])).map((o) => o.status), ['fulfilled', 'fulfilled']);
        await reader.connect();
        assert.deepEqual(((await reader.xRange('jobs', '-', '+')) ?? []).map((e) => e!.message.p), ['p1', 'p2']);
        await reader.select(0);
        assert.equal(await reader.exists('jobs'), 0);
      } finally {
        await appender.close();
        await reader.close();
      }
    });

    test('a wrong password fails the callers with Redis’s refusal, then backs off', async () => {
      const appender = new StreamAppender(`redis://default:wrong@127.0.0.1:${port}`, 'jobs');
      try {
        const [first] = await appendAll(appender, [['x']]);
        assert.match(String((first as PromiseRejectedResult).reason), /WRONGPASS|invalid/i);
        const [second] = await appendAll(appender, [['y']]);
        assert.match(String((second as PromiseRejectedResult).reason), /unreachable/);
      } finally {
        await appender.close();
      }
    });
  });

  test('only plain redis:// URLs are taken', () => {
    assert.equal(StreamAppender.supports('redis://localhost:6379'), true);
    assert.equal(StreamAppender.supports('rediss://localhost:6380'), false);
    assert.equal(StreamAppender.supports('not a url'), false);
  });
});
