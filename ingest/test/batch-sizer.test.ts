import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchSizer } from '../src/worker/batch-sizer';

test('a sizer starts small, then sizes batches to the target time from what it measured', () => {
  const sizer = new BatchSizer(500, 20);
  assert.equal(sizer.next(), 10);
  sizer.record(10, 5); // 0.5 ms an event: 40 fit in 20 ms
  assert.equal(sizer.next(), 40);
  sizer.record(40, 80); // a slower machine, 2 ms an event: the average moves toward it
  assert.equal(sizer.next(), Math.floor(20 / (0.5 * 0.7 + 2 * 0.3)));
});

test('a sizer stays between its minimum and the configured batch size', () => {
  const fast = new BatchSizer(500, 20);
  fast.record(100, 0.1);
  assert.equal(fast.next(), 500);
  const slow = new BatchSizer(500, 20);
  slow.record(10, 10_000);
  assert.equal(slow.next(), 10);
  const tiny = new BatchSizer(4, 20);
  assert.equal(tiny.next(), 4);
  tiny.record(0, 100); // an empty batch teaches nothing
  assert.equal(tiny.next(), 4);
});
