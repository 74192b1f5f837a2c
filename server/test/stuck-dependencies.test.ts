import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect, createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { startPrivatePostgres, startPrivateRedis, type PrivatePostgres, type PrivateRedis } from '@tracker/core/testing';
import { loadConfig } from '@tracker/core';
import type { Tracker } from '../src';
import { runCli } from '../src/cli';
import { startChildServer } from './child-server';
import { childEnv, createTestEnv, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

/**
 * Issue 15 §3: a stuck Redis or PostgreSQL must not hang the service. Real servers of the
 * test's own, frozen with SIGSTOP, stopped or black-holed; bounds with margin, not timings.
 */

const event = (eventId = randomUUID()) => ({ eventId, type: 'TypeError', message: 'stuck?', environment: 'production' });

/** `fn`'s result and how long it took. */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - start };
}

/** GET /readyz, failing the test (instead of hanging it) when there is no answer within `limitMs`. */
async function readyz(url: string, limitMs = 1_000) {
  const { value: res, ms } = await timed(() => fetch(`${url}/readyz`, { signal: AbortSignal.timeout(limitMs + 2_000) }));
  const body = (await res.json()) as { status: string; checks: Record<string, string> };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body, ms };
}

async function storedEventIds(tracker: Tracker, projectId: string): Promise<Set<string>> {
  const rows: Array<{ event_id: string }> = await tracker.db.ds.query('SELECT event_id FROM events WHERE project_id = $1', [projectId]);
  return new Set(rows.map((r) => r.event_id));
}

describe('a frozen Redis (SIGSTOP) does not hang ingest, /readyz or shutdown (postgres+redis)', () => {
  let redis: PrivateRedis;
  let env: TestEnv;
  const trackers: Tracker[] = [];
  after(async () => {
    redis?.thaw();
    for (const t of trackers) await t.close();
    await env?.cleanup();
    await redis?.close();
  });

  test('503 + Retry-After within 2 s while frozen; 202 within 10 s of the thaw; every accepted event stored', async () => {
    redis = await startPrivateRedis();
    env = await createTestEnv('postgres+redis', { redisUrl: redis.url });
    const tracker = await startTracker(env);
    trackers.push(tracker);
    const a = await signUpWithProject(tracker.url);
    const accepted: string[] = [];
    const send = async () => {
      const e = event();
      const r = await sendError(tracker.url, a.key, e);
      if (r.status === 202) accepted.push(e.eventId);
      return r;
    };
    for (let i = 0; i < 20; i++) assert.equal((await send()).status, 202);

    redis.freeze();
    try {
      // Two rounds: the first meets connections that just got stuck, the second reconnected ones.
      for (let round = 0; round < 2; round++) {
        const answers = await Promise.all(Array.from({ length: 20 }, () => timed(send)));
        for (const { value, ms } of answers) {
          assert.equal(value.status, 503, `round ${round}: ${JSON.stringify(value.body)}`);
          assert.ok(Number(value.headers.get('retry-after')) >= 1, 'a 503 carries Retry-After');
          assert.ok(ms < 2_000, `round ${round}: answered in ${ms} ms`);
        }
      }
      const ready = await readyz(tracker.url);
      assert.ok(ready.ms < 1_000, `/readyz answered in ${ready.ms} ms`);
      assert.equal(ready.status, 503);
      assert.ok(Number(ready.retryAfter) >= 1);
      assert.equal(ready.body.status, 'unavailable');
      assert.equal(ready.body.checks.database, 'ok');
      assert.match(ready.body.checks.queue, /timeout after \d+ ms/);
    } finally {
      redis.thaw();
    }
    const thawed = Date.now();
    await waitFor('a 202 after the thaw', async () => (await send()).status === 202, 10_000);
    assert.ok(Date.now() - thawed < 10_000);
    for (let i = 0; i < 10; i++) assert.equal((await send()).status, 202);
    assert.equal((await readyz(tracker.url)).status, 200);
    // The worker resumes and nothing answered 202 is lost.
    await waitFor(
      `all ${accepted.length} accepted events stored`,
      async () => {
        const stored = await storedEventIds(tracker, a.project.id);
        return accepted.every((id) => stored.has(id));
      },
      30_000,
    );
  });

  test('SIGTERM exits within 10 s while Redis is frozen (a real process, requests in flight)', async () => {
    assert.equal((await runCli(['migrate'], childEnv(env))).code, 0);
    const child = await startChildServer(childEnv(env), 'ingest,worker,api');
    let exited = false;
    try {
      const a = await signUpWithProject(child.url);
      assert.equal((await sendError(child.url, a.key, event())).status, 202);
      redis.freeze();
      // Requests and a probe in flight against the stuck Redis when the signal comes.
      const inFlight = [
        ...Array.from({ length: 5 }, () => sendError(child.url, a.key, event()).catch(() => undefined)),
        fetch(`${child.url}/readyz`).catch(() => undefined),
      ];
      await new Promise((r) => setTimeout(r, 300));
      const exit = new Promise<number | null>((resolve) => child.proc.once('exit', (code) => resolve(code)));
      const { ms } = await timed(async () => {
        child.proc.kill('SIGTERM');
        await Promise.race([exit, new Promise((r) => setTimeout(r, 15_000))]);
      });
      exited = child.proc.exitCode !== null || child.proc.signalCode !== null;
      assert.ok(exited, `the process did not exit 15 s after SIGTERM:\n${child.output()}`);
      assert.ok(ms < 10_000, `exited ${ms} ms after SIGTERM`);
      await Promise.all(inFlight);
    } finally {
      redis.thaw();
      if (!exited) await child.kill();
    }
  });
});

/**
 * A TCP proxy that can black-hole the link: while `drop` is on, bytes from the client are
 * thrown away (the connection stays open, nothing is answered), as a broken middlebox does.
 */
async function startBlackHoleProxy(target: number) {
  let dropping = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    sockets.add(client).add(upstream);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', closeBoth).on('close', closeBoth);
    upstream.on('error', closeBoth).on('close', closeBoth);
    client.on('data', (chunk: Buffer) => {
      if (!dropping) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    drop: (on: boolean) => (dropping = on),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a black-holed Redis link (open, answering nothing) (postgres+redis)', () => {
  let redis: PrivateRedis;
  let env: TestEnv;
  after(async () => {
    await env?.cleanup();
    await redis?.close();
  });

  test('503 + Retry-After while black-holed, 202 again within 10 s once the link works, /readyz answers', async () => {
    redis = await startPrivateRedis();
    const proxy = await startBlackHoleProxy(redis.port);
    env = await createTestEnv('postgres+redis', { redisUrl: redis.url });
    const tracker = await startTracker(env, { redisUrl: proxy.url });
    try {
      const a = await signUpWithProject(tracker.url);
      assert.equal((await sendError(tracker.url, a.key, event())).status, 202);
      proxy.drop(true);
      const answers = await Promise.all(Array.from({ length: 10 }, () => timed(() => sendError(tracker.url, a.key, event()))));
      for (const { value, ms } of answers) {
        assert.equal(value.status, 503);
        assert.ok(Number(value.headers.get('retry-after')) >= 1);
        assert.ok(ms < 2_000, `answered in ${ms} ms`);
      }
      const ready = await readyz(tracker.url);
      assert.ok(ready.ms < 1_000, `/readyz answered in ${ready.ms} ms`);
      assert.notEqual(ready.body.checks.queue, 'ok');
      proxy.drop(false);
      await waitFor('a 202 once the link works again', async () => (await sendError(tracker.url, a.key, event())).status === 202, 10_000);
      await waitFor('/readyz ready again', async () => (await readyz(tracker.url)).status === 200, 10_000);
    } finally {
      const { ms } = await timed(() => tracker.close());
      await proxy.close();
      assert.ok(ms < 10_000, `close took ${ms} ms`);
    }
  });
});

describe('PostgreSQL stopped or restarted (postgres+redis)', () => {
  let pg: PrivatePostgres;
  let env: TestEnv;
  after(async () => {
    await env?.cleanup();
    await pg?.close();
  });

  test('/readyz answers within 1 s naming the database while PostgreSQL is stopped, and while frozen', async () => {
    pg = await startPrivatePostgres();
    env = await createTestEnv('postgres+redis', { databaseUrl: pg.url });
    const tracker = await startTracker(env);
    try {
      assert.equal((await readyz(tracker.url)).status, 200);
      await pg.stop();
      const stopped = await readyz(tracker.url);
      assert.ok(stopped.ms < 1_000, `/readyz answered in ${stopped.ms} ms`);
      assert.equal(stopped.status, 503);
      assert.ok(Number(stopped.retryAfter) >= 1);
      assert.notEqual(stopped.body.checks.database, 'ok');
      assert.equal(stopped.body.checks.queue, 'ok');
      await pg.start();
      await waitFor('ready once PostgreSQL is back', async () => (await readyz(tracker.url)).status === 200, 10_000);
      pg.freeze();
      try {
        for (let i = 0; i < 3; i++) {
          const frozen = await readyz(tracker.url);
          assert.ok(frozen.ms < 1_000, `/readyz answered in ${frozen.ms} ms`);
          assert.match(frozen.body.checks.database, /timeout after \d+ ms/);
        }
      } finally {
        pg.thaw();
      }
    } finally {
      await tracker.close();
    }
  });

  test('a PostgreSQL restart mid-traffic loses no accepted event', async () => {
    const tracker = await startTracker(env);
    try {
      await waitFor('ready', async () => (await readyz(tracker.url)).status === 200, 15_000);
      const a = await signUpWithProject(tracker.url);
      const accepted: string[] = [];
      let sending = true;
      const traffic = (async () => {
        while (sending) {
          const batch = await Promise.all(
            Array.from({ length: 10 }, async () => {
              const e = event();
              const r = await sendError(tracker.url, a.key, e);
              return { id: e.eventId, status: r.status, retryAfter: r.headers.get('retry-after') };
            }),
          );
          for (const r of batch) {
            if (r.status === 202) accepted.push(r.id);
            else assert.ok(r.status === 503 && r.retryAfter, `unexpected answer ${r.status}`);
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      await waitFor('some events stored', async () => (await storedEventIds(tracker, a.project.id)).size > 20, 15_000);
      await pg.restart();
      await new Promise((r) => setTimeout(r, 1_500));
      sending = false;
      await traffic;
      assert.ok(accepted.length > 50);
      await waitFor(
        `all ${accepted.length} accepted events stored after the restart`,
        async () => {
          const stored = await storedEventIds(tracker, a.project.id).catch(() => new Set<string>());
          return accepted.every((id) => stored.has(id));
        },
        30_000,
      );
    } finally {
      await tracker.close();
    }
  });
});

describe('slow clients cannot hold sockets (postgres+redis)', () => {
  let env: TestEnv;
  after(async () => {
    await env?.cleanup();
  });

  test('200 connections trickling headers or bodies are cut after the timeouts; ingest answers others meanwhile', async () => {
    env = await createTestEnv('postgres+redis', { http: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 } });
    const tracker = await startTracker(env);
    const slow: Socket[] = [];
    const trickles: NodeJS.Timeout[] = [];
    try {
      const a = await signUpWithProject(tracker.url);
      const { port } = new URL(tracker.url);
      const closedAt = new Map<Socket, number>();
      const opened = Date.now();
      for (let i = 0; i < 200; i++) {
        const s = connect({ host: '127.0.0.1', port: Number(port) });
        s.on('error', () => undefined);
        s.on('close', () => closedAt.set(s, Date.now()));
        await new Promise((r) => s.once('connect', r));
        const body = JSON.stringify(event());
        // Half trickle their headers, half send headers and trickle the body.
        if (i % 2 === 0) s.write('POST /ingest/error HTTP/1.1\r\nHost: x\r\n');
        else s.write(`POST /ingest/error HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: DSN ${a.key}\r\nContent-Length: ${body.length}\r\n\r\n{`);
        trickles.push(setInterval(() => s.writable && s.write(i % 2 === 0 ? 'X' : ' '), 200));
        slow.push(s);
      }
      for (let i = 0; i < 5; i++) {
        const { value, ms } = await timed(() => sendError(tracker.url, a.key, event()));
        assert.equal(value.status, 202);
        assert.ok(ms < 1_000, `answered in ${ms} ms beside 200 slow clients`);
      }
      await waitFor('every slow connection closed by the server', async () => closedAt.size === slow.length, 8_000);
      const latest = Math.max(...closedAt.values()) - opened;
      assert.ok(latest < 8_000, `the last slow connection was closed after ${latest} ms`);
    } finally {
      for (const t of trickles) clearInterval(t);
      for (const s of slow) s.destroy();
      await tracker.close();
    }
  });

  test('the defaults: 10 s for headers, 30 s for a whole request', async () => {
    const tracker = await startTracker(env, { http: loadConfig({}).http });
    try {
      assert.equal(tracker.app.server.headersTimeout, 10_000);
      assert.equal(tracker.app.server.requestTimeout, 30_000);
    } finally {
      await tracker.close();
    }
  });
});

describe('embedded (PGlite, database queue): its one connection held', () => {
  let env: TestEnv;
  after(async () => {
    await env?.cleanup();
  });

  test('/readyz answers within 1 s naming the database and queue; close() returns within its deadline', async () => {
    env = await createTestEnv('embedded', { shutdownTimeoutMs: 3_000 });
    const tracker = await startTracker(env);
    assert.equal((await readyz(tracker.url)).status, 200);
    // A transaction that never ends holds PGlite's only connection: everything else waits.
    const runner = tracker.db.ds.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const ready = await readyz(tracker.url);
      assert.ok(ready.ms < 1_000, `/readyz answered in ${ready.ms} ms`);
      assert.equal(ready.status, 503);
      assert.ok(Number(ready.retryAfter) >= 1);
      assert.match(ready.body.checks.database, /timeout after \d+ ms/);
      const { value: report, ms } = await timed(() => tracker.close());
      assert.ok(ms < 5_000, `close took ${ms} ms`);
      assert.ok(report.abandoned.length > 0, 'the held connection is reported as abandoned');
    } finally {
      await runner.rollbackTransaction().catch(() => undefined);
      await runner.release().catch(() => undefined);
    }
  });
});
