import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDeduplicator, createRateCap, DEDUP_WINDOW_MS, RATE_CAP_PER_WINDOW, RATE_WINDOW_MS, RETRY_DELAYS_MS } from '../src/index';

function fakeClock(start = 1_000_000) {
  return { t: start, now() { return this.t; } };
}

test('the public defaults are the numbers of issue 3', () => {
  assert.equal(DEDUP_WINDOW_MS, 60_000);
  assert.equal(RATE_CAP_PER_WINDOW, 60);
  assert.equal(RATE_WINDOW_MS, 60_000);
  assert.equal(RETRY_DELAYS_MS.length, 2);
  assert.ok(RETRY_DELAYS_MS[1] > RETRY_DELAYS_MS[0], 'back-off grows');
});

test('identical errors within 60 s are remembered, after 60 s they are new again', () => {
  const clock = fakeClock();
  const dedup = createDeduplicator(DEDUP_WINDOW_MS, 100, clock);
  assert.equal(dedup.findRecent('k'), undefined);
  dedup.remember('k', 'id-1');
  clock.t += 59_999;
  assert.equal(dedup.findRecent('k'), 'id-1');
  clock.t += 1;
  assert.equal(dedup.findRecent('k'), undefined);
});

test('de-duplication memory is bounded, oldest forgotten first', () => {
  const dedup = createDeduplicator(DEDUP_WINDOW_MS, 3, fakeClock());
  for (const k of ['a', 'b', 'c', 'd']) dedup.remember(k, k);
  assert.equal(dedup.findRecent('a'), undefined);
  assert.equal(dedup.findRecent('d'), 'd');
});

test('the rate cap lets 60 through per sliding minute', () => {
  const clock = fakeClock();
  const take = createRateCap(RATE_CAP_PER_WINDOW, RATE_WINDOW_MS, clock);
  let passed = 0;
  for (let i = 0; i < 100; i++) if (take()) passed++;
  assert.equal(passed, 60);
  clock.t += 59_999;
  assert.equal(take(), false);
  clock.t += 1;
  assert.equal(take(), true);
});
