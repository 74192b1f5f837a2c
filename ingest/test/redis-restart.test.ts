import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { deadLetterSink, openDatabase, type Database } from '@tracker/core';
import { createTestPostgres, startPrivateRedis, type PrivateRedis } from '@tracker/core/testing';
import { RedisServerWatch, RedisStreamQueue } from '../src/queue';

/**
 * Issue 28 §3: a Redis killed with SIGKILL and started again. Real `redis-server`s of the test's
 * own; the machine's shared Redis is never touched.
 */

type Line = { level: string; message: string; data: Record<string, unknown> };

async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the queue after a Redis restart without persistence', () => {
  let redis: PrivateRedis;
  let db: Database;
  let drop: () => Promise<void>;
  before(async () => {
    redis = await startPrivateRedis();
    const pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    drop = pg.drop;
  });
  after(async () => {
    await db?.close();
    await drop?.();
    await redis?.close();
  });

  for (const topic of ['jobs', 'alerts']) {
    test(`${topic}: the consumer group is made again on NOGROUP and what was enqueued after the restart is delivered`, async () => {
      const lines: Line[] = [];
      const prefix = `t-${topic}-${Date.now()}`;
      const open = () =>
        RedisStreamQueue.connect({
          url: redis.url,
          prefix,
          topic,
          reclaimIdleMs: 200,
          deadLetters: deadLetterSink(db.ds),
          log: (level, message, data) => lines.push({ level, message, data }),
        });
      // The edge and the worker are separate connections, as in production.
      const edge = await open();
      const worker = await open();
      try {
        await edge.enqueue(['before']);
        const first = await worker.receive(10, 100);
        assert.deepEqual(
          first.map((m) => m.payload),
          ['before'],
        );
        await worker.ack(first);

        await redis.kill();
        await redis.start();
        // The edge's XADD makes the stream again, without the group (MKSTREAM is only in XGROUP).
        await waitFor('an enqueue after the restart', () =>
          edge.enqueue(['after-1', 'after-2']).then(
            () => true,
            () => false,
          ),
        );
        const delivered: string[] = [];
        await waitFor(
          'both messages enqueued after the restart',
          async () => {
            const got = await worker.receive(10, 100).catch((err: Error) => {
              assert.doesNotMatch(err.message, /NOGROUP/, 'NOGROUP reached the worker');
              return [];
            });
            delivered.push(...got.map((m) => m.payload as string));
            await worker.ack(got);
            return delivered.length >= 2;
          },
          15_000,
        );
        assert.deepEqual(delivered, ['after-1', 'after-2']);
        assert.equal(worker.groupsRecreated, 1);
        assert.ok(
          lines.some((l) => l.level === 'warn' && /consumer group was missing/.test(l.message)),
          JSON.stringify(lines),
        );
      } finally {
        await edge.close();
        await worker.close();
      }
    });
  }
});

describe("Redis's persistence and restarts, read by the watch", () => {
  const servers: PrivateRedis[] = [];
  const watches: RedisServerWatch[] = [];
  after(async () => {
    for (const w of watches) await w.close();
    for (const s of servers) await s.close();
  });

  async function watch(redis: PrivateRedis, intervalMs = 100) {
    const lines: Line[] = [];
    const w = await RedisServerWatch.start({
      url: redis.url,
      intervalMs,
      log: (level, message, data) => lines.push({ level, message, data }),
    });
    watches.push(w);
    return { w, lines };
  }

  test('without persistence: a warning at start naming the setting; a SIGKILL and start is counted as a restart', async () => {
    const redis = await startPrivateRedis();
    servers.push(redis);
    const { w, lines } = await watch(redis);
    assert.equal(w.current.persistence.survivesRestart, false);
    assert.equal(w.current.persistence.appendonly, 'no');
    const warnings = lines.filter((l) => l.level === 'warn');
    assert.equal(warnings.length, 1, JSON.stringify(lines));
    assert.match(warnings[0].message, /appendonly no/);
    assert.match(warnings[0].message, /Set appendonly yes/);
    const runId = w.current.runId;
    assert.match(runId ?? '', /^[0-9a-f]{40}$/);

    await redis.kill();
    await redis.start();
    await waitFor('the restart seen', async () => w.current.restarts === 1);
    assert.notEqual(w.current.runId, runId);
    assert.ok(lines.some((l) => l.level === 'warn' && /Redis restarted/.test(l.message)));
    // Polls on: no second restart counted for the same process.
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(w.current.restarts, 1);
  });

  test('RDB snapshots only: still a warning (what came after the last snapshot is lost)', async () => {
    const redis = await startPrivateRedis(['--save', '3600 1']);
    servers.push(redis);
    const { w, lines } = await watch(redis);
    assert.equal(w.current.persistence.survivesRestart, false);
    const warnings = lines.filter((l) => l.level === 'warn');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0].message, /only snapshots/);
  });

  test('appendonly yes: no warning', async () => {
    const redis = await startPrivateRedis([], { appendOnly: true });
    servers.push(redis);
    const { w, lines } = await watch(redis);
    assert.equal(w.current.persistence.survivesRestart, true);
    assert.equal(w.current.persistence.appendfsync, 'always');
    assert.deepEqual(
      lines.filter((l) => l.level === 'warn'),
      [],
    );
  });

  test('CONFIG refused (as on managed Redis): "unknown", and a warning saying it could not be read', async () => {
    const redis = await startPrivateRedis(['--rename-command', 'CONFIG', '']);
    servers.push(redis);
    const { w, lines } = await watch(redis);
    assert.equal(w.current.persistence.survivesRestart, 'unknown');
    assert.equal(w.current.persistence.appendonly, 'unknown');
    assert.match(w.current.persistence.error ?? '', /unknown command/i);
    const warnings = lines.filter((l) => l.level === 'warn');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0].message, /could not read Redis's persistence settings/);
  });
});
