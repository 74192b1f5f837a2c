import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '@tracker/core';
import { BacklogBound } from '../src/queue';

/** The arithmetic of the backlog bound; the real queue and HTTP path: server/test/ingest-overload.test.ts. */
describe('BacklogBound', () => {
  const refusal = (bound: BacklogBound, incoming?: number): AppError => {
    try {
      bound.check(incoming);
    } catch (err) {
      assert.ok(err instanceof AppError);
      return err;
    }
    assert.fail('expected a refusal');
  };

  test('counts what is being enqueued against the bound, and forgets a failed enqueue', () => {
    const bound = new BacklogBound({ maxItems: 10, maxBytes: 0 });
    bound.enqueuing(9, 900);
    bound.check();
    bound.enqueuing(1, 100);
    assert.equal(refusal(bound).code, 'UNAVAILABLE');
    bound.enqueued(1, 100, false);
    bound.check();
    bound.enqueued(9, 900, true);
    assert.deepEqual(bound.backlog, { items: 9, bytes: 900 });
    bound.removed(5, 500);
    assert.deepEqual(bound.backlog, { items: 4, bytes: 400 });
    assert.equal(bound.refused, 1);
  });

  test('a request of N items counts N, and is refused whole when it would pass the bound (issue 28)', () => {
    const bound = new BacklogBound({ maxItems: 1_000, maxBytes: 0 });
    bound.recounted(500, 0);
    bound.check(500); // exactly up to the bound
    assert.match(refusal(bound, 501).message, /500 items .* waiting to be stored/);
    assert.equal(refusal(bound, 5_000).code, 'UNAVAILABLE');
    // Into an empty backlog any request is let in, so a bound below a door's largest request cannot shut it.
    bound.recounted(0, 0);
    bound.check(5_000);
    assert.equal(bound.refused, 2);
  });

  test('the byte limit refuses on its own', () => {
    const bound = new BacklogBound({ maxItems: 0, maxBytes: 1_000 });
    bound.recounted(2, 999);
    bound.check();
    bound.recounted(2, 1_000);
    assert.match(refusal(bound).message, /2 items .* waiting to be stored/);
  });

  test('Retry-After: the time to drain back under 90 % at the recent rate; 30 s when nothing drains', () => {
    let now = 0;
    const bound = new BacklogBound({ maxItems: 1_000, maxBytes: 0 }, () => now);
    bound.recounted(1_000, 0);
    assert.equal(refusal(bound).retryAfter, 30, 'no drain measured yet');
    // 200 items removed in the next second: 200/s; 100 over 90 % → 1 s.
    bound.removed(200, 0);
    now = 1_000;
    bound.recounted(1_000, 0);
    assert.equal(refusal(bound).retryAfter, 1);
    // Drain slows to 10/s (smoothed: 0.7 × 200 + 0.3 × 10 = 143/s): still ≥ 1 s, never 0.
    bound.removed(10, 0);
    now = 2_000;
    bound.recounted(1_000, 0);
    assert.equal(refusal(bound).retryAfter, 1);
    // A stalled worker: the smoothed rate decays below 1/s and the answer is the maximum.
    for (let s = 3; s < 40; s++) {
      now = s * 1_000;
      bound.recounted(1_000, 0);
    }
    assert.equal(refusal(bound).retryAfter, 30);
  });
});
