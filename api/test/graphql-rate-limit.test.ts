import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryRateLimiter } from '../src/rate-limit/graphql-rate-limiter';
import { retryAfterSeconds, slidingEstimate } from '../src/rate-limit/sliding-window';

describe('sliding-window rate limit (pure)', () => {
  test('weights the previous window by how much of it still overlaps', () => {
    assert.equal(slidingEstimate(10, 0, 0, 60_000), 10);
    assert.equal(slidingEstimate(10, 2, 30_000, 60_000), 7);
    assert.equal(slidingEstimate(10, 2, 60_000, 60_000), 2);
  });

  test('Retry-After: until enough of the previous window slid out, or into the next window', () => {
    // 10 per 60 s, all 10 in the previous window, 0 now, at 0 s: one fits once 1/10 of it is gone (6 s).
    assert.equal(retryAfterSeconds(10, 0, 0, 10, 60_000), 6);
    // All 10 in this window at 20 s: the next window starts in 40 s, and 1/10 of it (6 s) later one fits.
    assert.equal(retryAfterSeconds(0, 10, 20_000, 10, 60_000), 46);
    // Never below 1 s.
    assert.equal(retryAfterSeconds(10, 0, 59_999, 10, 60_000), 1);
  });
});

describe('in-memory GraphQL rate limiter', () => {
  test('allows the limit, refuses the next with Retry-After, and recovers after the window', async () => {
    let now = 1_000_000; // the start of a window (1000 × 1 s)
    const limiter = createMemoryRateLimiter({ requests: 5, windowMs: 1_000 }, () => now);
    for (let i = 0; i < 5; i++) assert.equal((await limiter.hit('token:a')).allowed, true, `request ${i + 1}`);
    const refused = await limiter.hit('token:a');
    assert.equal(refused.allowed, false);
    assert.ok(refused.retryAfter >= 1, `retryAfter ${refused.retryAfter}`);
    // Another subject has its own budget.
    assert.equal((await limiter.hit('token:b')).allowed, true);
    // Refused requests are not counted: after the advertised wait one more fits.
    now += refused.retryAfter * 1_000;
    assert.equal((await limiter.hit('token:a')).allowed, true);
    // Two windows later everything has slid out.
    now += 2_000;
    for (let i = 0; i < 5; i++) assert.equal((await limiter.hit('token:a')).allowed, true);
    assert.equal((await limiter.hit('token:a')).allowed, false);
  });

  test('no burst of twice the limit across a window boundary', async () => {
    let now = 5_000_900; // 900 ms into a window
    const limiter = createMemoryRateLimiter({ requests: 10, windowMs: 1_000 }, () => now);
    let allowed = 0;
    for (let i = 0; i < 10; i++) allowed += (await limiter.hit('ip:1')).allowed ? 1 : 0;
    now += 200; // 100 ms into the next window: 90 % of the previous one still counts
    for (let i = 0; i < 10; i++) allowed += (await limiter.hit('ip:1')).allowed ? 1 : 0;
    assert.equal(allowed, 11);
  });

  test('0 turns the limit off', async () => {
    const limiter = createMemoryRateLimiter({ requests: 0, windowMs: 1_000 });
    for (let i = 0; i < 100; i++) assert.equal((await limiter.hit('x')).allowed, true);
  });
});
