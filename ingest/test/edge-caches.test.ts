import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KeyInfo } from '@tracker/core';
import { KeyCache } from '../src/http/key-cache';
import { LogThrottle } from '../src/http/log-throttle';
import { RecentIds } from '../src/http/recent-ids';

/*
 * The edge's in-memory caches expire by the clock they are given. The times are years from the
 * wall clock, so a cache that read Date.now() would expire (or keep) entries otherwise.
 */
const T = Date.parse('2031-03-15T12:00:00.000Z');

describe("the edge's caches follow their clock", () => {
  test('a retried client id counts once for an hour of the clock, then counts again', () => {
    let now = T;
    const recent = new RecentIds({ clock: () => now });
    recent.remember('p1', 'e1');
    now = T + 3_600_000 - 1;
    assert.equal(recent.has('p1', 'e1'), true, 'a retry within the hour');
    assert.equal(recent.has('p2', 'e1'), false, 'the same id in another project is new');
    now = T + 3_600_000;
    assert.equal(recent.has('p1', 'e1'), false, 'an hour later it is new again');
  });

  test('a DSN key is trusted for ttlMs of the clock, an unknown key for negativeTtlMs', async () => {
    let now = T;
    const loads: string[] = [];
    const info = { keyId: 'k1' } as KeyInfo;
    const keys = new KeyCache(
      async (publicKey) => {
        loads.push(publicKey);
        return publicKey === 'known' ? info : null;
      },
      { ttlMs: 60_000, negativeTtlMs: 10_000, clock: () => now },
    );
    assert.equal(await keys.get('known'), info);
    assert.equal(await keys.get('unknown'), null);
    now = T + 9_999;
    assert.equal(keys.peek('unknown'), null, 'still known to be unknown');
    now = T + 10_000;
    assert.equal(keys.peek('unknown'), undefined, 'an unknown key is asked again after 10 s');
    now = T + 59_999;
    assert.equal(keys.peek('known'), info);
    now = T + 60_000;
    assert.equal(keys.peek('known'), undefined, 'a known key is read again after 60 s');
    assert.equal(await keys.get('known'), info);
    assert.deepEqual(loads, ['known', 'unknown', 'known']);
  });

  test('while lookups fail, a known key is served past its TTL for up to maxStaleMs, an unknown key is 503, and the key is read again once the database answers', async () => {
    let now = T;
    let down = false;
    const loads: string[] = [];
    const info = { keyId: 'k1' } as KeyInfo;
    const keys = new KeyCache(
      async (publicKey) => {
        loads.push(publicKey);
        if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return publicKey === 'known' ? info : null;
      },
      { ttlMs: 60_000, maxStaleMs: 3_600_000, clock: () => now },
    );
    assert.equal(await keys.get('known'), info);
    down = true;
    now = T + 60_000;
    assert.equal(await keys.get('known'), info, 'past its TTL, the database down: served from the cache');
    assert.equal(keys.peek('known'), info, 'and the fast path takes it while the lookup is failing');
    assert.equal(keys.stats.lookupsFailed, 1);
    await assert.rejects(keys.get('other'), (err: Error & { code?: string; retryAfter?: number }) => {
      assert.equal(err.code, 'UNAVAILABLE', 'an unknown key cannot be told from a valid one: 503, not 401');
      assert.ok((err.retryAfter ?? 0) >= 1);
      return true;
    });
    const loadsBefore = loads.length;
    for (let i = 0; i < 100; i++) await keys.get('known');
    assert.equal(loads.length, loadsBefore, 'within a second of a failure the key is not looked up again');
    now = T + 3_600_000;
    assert.equal(await keys.get('known'), info, 'an hour after it was read: still served');
    now = T + 3_600_001 + 1_000;
    await assert.rejects(keys.get('known'), /cannot be checked now/, 'past the stale limit: 503');
    down = false;
    now += 1_000;
    assert.equal(await keys.get('known'), info, 'the database is back: read again');
    assert.equal(keys.peek('known'), info, 'and fresh for another TTL');
  });

  test('a failure that repeats on every request is logged once per 10 s of the clock, saying how many were held back', () => {
    let now = T;
    const throttle = new LogThrottle(10_000, () => now);
    assert.equal(throttle.take(), 0, 'the first is written');
    for (let i = 0; i < 1_800; i++) assert.equal(throttle.take(), undefined);
    now = T + 9_999;
    assert.equal(throttle.take(), undefined);
    now = T + 10_000;
    assert.equal(throttle.take(), 1_801, 'the next line counts those held back');
    assert.equal(throttle.take(), undefined);
  });
});
