import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KeyInfo } from '@tracker/core';
import { KeyCache } from '../src/http/key-cache';
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
});
