import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FailOpenWaits } from '../src/quota/fail-open';
import { Lease } from '../src/quota/lease';
import { Periods } from '../src/quota/periods';

/*
 * The quota rules under a fake clock in milliseconds. The times are years away from the wall
 * clock, so a rule that read Date.now() instead of the `now` it is given decides otherwise.
 */
const T = Date.parse('2031-03-15T12:00:00.000Z');

/** A fake clock: starts at `T` and moves only when told. */
function fakeClock(start = T) {
  let now = start;
  return { clock: () => now, set: (ms: number) => (now = ms), advance: (ms: number) => (now += ms) };
}

function monthLease(period = '2031-03'): Lease {
  const lease = new Lease('events', 'org-1');
  lease.turn(period);
  return lease;
}

describe('lease rules', () => {
  test('"limit reached" holds until the recheck time of the given clock, then asks again', () => {
    const lease = monthLease();
    assert.equal(lease.received('2031-03', { granted: 0, used: 100 }, 100, T, 1_000), false);
    assert.equal(lease.exhausted(100, T), true);
    assert.equal(lease.exhausted(100, T + 999), true);
    assert.equal(lease.exhausted(100, T + 1_000), false, 'the recheck time has come');
    assert.equal(lease.exhausted(101, T + 1), false, 'a raised limit asks again at once');
  });

  test('a block is taken until it runs out, and the next is asked for while half is left', () => {
    const lease = monthLease();
    lease.block = 4;
    lease.received('2031-03', { granted: 4, used: 4 }, 1_000, T, 1_000);
    assert.equal(lease.takeOne(T + 1), true);
    assert.equal(lease.wantsPrefetch(1_000, T + 1), false, '3 of 4 left');
    assert.equal(lease.takeOne(T + 2), true);
    assert.equal(lease.takeOne(T + 3), true);
    assert.equal(lease.wantsPrefetch(1_000, T + 3), true, '1 of 4 left');
    lease.asked(new Promise(() => undefined), T + 3);
    assert.equal(lease.wantsPrefetch(1_000, T + 3), false, 'one count in flight at a time');
    assert.equal(lease.takeOne(T + 4), true);
    assert.equal(lease.takeOne(T + 5), false, 'nothing left until the count answers');
  });

  test('renewal: the block doubles when the last one lasted under a second and halves after', () => {
    const lease = monthLease();
    lease.block = 8;
    lease.received('2031-03', { granted: 8, used: 8 }, 1_000_000, T, 1_000);
    assert.equal(lease.nextWant(1_000_000, 256, T + 999), 16, 'used up within the second: doubles');
    lease.received('2031-03', { granted: 16, used: 24 }, 1_000_000, T + 999, 1_000);
    assert.equal(lease.nextWant(1_000_000, 256, T + 999 + 1_000), 8, 'lasted a second: halves');
  });

  test('renewal never asks for more than 1/32 of what is left, nor less than one unit', () => {
    const lease = monthLease();
    lease.block = 64;
    lease.received('2031-03', { granted: 64, used: 900 }, 1_000, T, 1_000);
    assert.equal(lease.nextWant(1_000, 256, T + 10), 3, '100 left: 3');
    lease.received('2031-03', { granted: 3, used: 999 }, 1_000, T + 10, 1_000);
    assert.equal(lease.nextWant(1_000, 256, T + 20), 1);
  });

  test('a count outstanding for the fail-open wait is stuck by the given clock', () => {
    const lease = monthLease();
    lease.asked(new Promise(() => undefined), T);
    assert.equal(lease.stuck(T + 499, 500), false);
    assert.equal(lease.stuck(T + 500, 500), true);
  });

  test('units go back when unused since the idle cutoff, and the block starts over', () => {
    const lease = monthLease();
    lease.block = 32;
    lease.received('2031-03', { granted: 32, used: 32 }, 10_000, T, 1_000);
    lease.takeOne(T + 100);
    assert.equal(lease.idle(false, T + 100), false, 'used at the cutoff');
    assert.equal(lease.idle(false, T + 101), true, 'unused since before the cutoff');
    assert.equal(lease.surrender(), 31);
    assert.equal(lease.remaining, 0);
    assert.equal(lease.nextWant(10_000, 256, T + 101), 1, 'a surrendered lease starts from one unit');
  });

  test('units of a period that turned while the count was asked are void', () => {
    const lease = monthLease('2031-03');
    lease.turn('2031-04');
    assert.equal(lease.received('2031-03', { granted: 10, used: 10 }, 100, T, 1_000), false);
    assert.equal(lease.remaining, 0);
    assert.equal(lease.takeOne(T), false);
  });

  test('a new period forgets the last one\'s units and its "limit reached"', () => {
    const lease = monthLease('2031-03');
    lease.received('2031-03', { granted: 0, used: 100 }, 100, T, 1_000);
    lease.turn('2031-04');
    assert.equal(lease.exhausted(100, T), false);
    assert.equal(lease.usedAfterReserve, 0);
  });
});

describe('periods of the counts', () => {
  test('the month turns at midnight UTC of the given time, the second every 1,000 ms', () => {
    const periods = new Periods();
    const lastMs = Date.parse('2031-01-31T23:59:59.999Z');
    assert.equal(periods.monthOf(lastMs), '2031-01');
    assert.equal(periods.monthOf(lastMs + 1), '2031-02');
    assert.equal(periods.monthOf(Date.parse('2031-12-31T23:59:59.999Z') + 1), '2032-01');
    assert.equal(periods.monthOf(lastMs), '2031-01', 'an earlier time is its own month again');
    assert.equal(periods.secondOf(lastMs), String(Math.floor(lastMs / 1000)));
    assert.equal(periods.secondOf(lastMs + 1), String((lastMs + 1) / 1000));
  });
});

describe('fail-open deadlines', () => {
  /** Lets settled promises run their callbacks. */
  const settle = () => new Promise((r) => setImmediate(r));

  test('a count unanswered by the deadline of the given clock admits uncounted; an earlier answer wins', async () => {
    const time = fakeClock();
    const waits = new FailOpenWaits(time.clock, 500);
    try {
      let outcome: boolean | undefined;
      void waits.bound(new Promise<boolean>(() => undefined), false).then((v) => (outcome = v));
      time.advance(499);
      waits.sweep();
      await settle();
      assert.equal(outcome, undefined, 'still waiting 1 ms before the deadline');
      time.advance(1);
      waits.sweep();
      await settle();
      assert.equal(outcome, false, 'given up at the deadline');

      let answered: boolean | undefined;
      void waits.bound(Promise.resolve(true), false).then((v) => (answered = v));
      await settle();
      assert.equal(answered, true);
    } finally {
      waits.close();
    }
  });

  test('after a stalled event loop, an answer that came in meanwhile wins over the passed deadline', async () => {
    const time = fakeClock();
    const waits = new FailOpenWaits(time.clock, 500);
    try {
      let answer!: (v: boolean) => void;
      let outcome: boolean | undefined;
      void waits.bound(new Promise<boolean>((r) => (answer = r)), false).then((v) => (outcome = v));
      // The loop was blocked for 2 s: the timer fires first, while the counter's answer ("over
      // the limit": refuse) is already waiting to be read in the same turn of the loop.
      time.advance(2_000);
      waits.sweep();
      answer(true);
      await settle();
      await settle();
      assert.equal(outcome, true, 'the answer is read before giving up');
    } finally {
      waits.close();
    }
  });

  test('closing admits whatever still waits', async () => {
    const waits = new FailOpenWaits(fakeClock().clock, 500);
    const pending = waits.bound(new Promise<boolean>(() => undefined), false);
    waits.close();
    assert.equal(await pending, false);
  });
});
