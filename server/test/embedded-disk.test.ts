import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestEnv, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';
import type { Tracker } from '../src';

/**
 * Issue 15 §3, the embedded runtime: its data folder on a disk that fills up or turns read-only.
 * A real filesystem of its own (a small tmpfs, mounted by the test: the machines and CI run as
 * root), not a mock: PGlite writes through to it and gets the real ENOSPC / EROFS.
 * While the disk refuses writes, ingest must answer 503 with Retry-After (a clear "retry later"),
 * never 202 for something it cannot keep, and /readyz must answer; once the disk is writable
 * again, everything answered 202 is stored.
 */
const canMount = process.getuid?.() === 0;

describe(
  'embedded data folder on a full or read-only disk',
  { skip: canMount ? false : 'needs root to mount a tmpfs' },
  () => {
    let mountpoint: string;
    let env: TestEnv;
    let tracker: Tracker;
    let key: string;
    const accepted: string[] = [];

    before(async () => {
      mountpoint = mkdtempSync(join(tmpdir(), 'tracker-disk-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256m', 'tmpfs', mountpoint]);
      mkdirSync(join(mountpoint, 'data'));
      env = await createTestEnv('embedded', { dataDir: join(mountpoint, 'data') });
      tracker = await startTracker(env);
      key = (await signUpWithProject(tracker.url)).key;
    });

    after(async () => {
      await tracker?.close().catch(() => undefined);
      try {
        execFileSync('umount', ['-l', mountpoint]);
      } catch {
        // not mounted
      }
      rmSync(mountpoint, { recursive: true, force: true });
      await env?.cleanup();
    });

    async function burst(label: string, n: number) {
      const statuses: Record<number, number> = {};
      for (let i = 0; i < n; i++) {
        const r = await sendError(tracker.url, key, {
          type: 'E',
          message: `${label} ${i} ${'x'.repeat(2_000)}`,
          environment: 'p',
        });
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        if (r.status === 202) accepted.push(r.body.id);
        else {
          assert.equal(r.status, 503, `${label}: ${r.status} ${JSON.stringify(r.body)}`);
          assert.equal(r.body.error.code, 'UNAVAILABLE');
          assert.ok(Number(r.headers.get('retry-after')) >= 1, `${label}: a 503 without Retry-After`);
        }
      }
      return statuses;
    }

    async function storedAll() {
      await waitFor(
        'every accepted event',
        async () =>
          (
            await tracker.db.ds.query('SELECT count(*)::int AS n FROM events WHERE event_id = ANY($1::uuid[])', [
              accepted,
            ])
          )[0].n === accepted.length,
        30_000,
      );
    }

    test('a full disk: 503 with Retry-After while full, then 202 again; every 202 stored', async () => {
      const { bavail, bsize } = statfsSync(mountpoint);
      writeFileSync(join(mountpoint, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - 200_000)));
      try {
        const whileFull = await burst('full', 300);
        assert.ok((whileFull[503] ?? 0) > 0, `the disk never filled: ${JSON.stringify(whileFull)}`);
        const ready = await fetch(`${tracker.url}/readyz`, { signal: AbortSignal.timeout(2_000) });
        await ready.arrayBuffer();
      } finally {
        rmSync(join(mountpoint, 'filler'));
      }
      await waitFor(
        'ingest to accept again',
        async () =>
          (await sendError(tracker.url, key, { type: 'E', message: 'back', environment: 'p' })).status === 202,
      );
      await storedAll();
    });

    test('a read-only disk: Tracker refuses to start with a clear error, and starts once writable; nothing lost', async () => {
      await tracker.close();
      execFileSync('mount', ['-o', 'remount,ro', mountpoint]);
      try {
        await assert.rejects(startTracker(env), (err: Error) => {
          assert.equal(
            err.message,
            `The data folder ${env.config.dataDir} is on a read-only file system: Tracker must write there.`,
          );
          return true;
        });
      } finally {
        execFileSync('mount', ['-o', 'remount,rw', mountpoint]);
      }
      tracker = await startTracker(env);
      await storedAll();
      assert.equal((await sendError(tracker.url, key, { type: 'E', message: 'again', environment: 'p' })).status, 202);
    });
  },
);
