import type { UsageMeter } from '@tracker/core';
import type { Reservation } from './counter';

/** Blocks used up faster than this grow; blocks that last longer shrink. */
const BLOCK_GROWTH_WINDOW_MS = 1_000;

/** A block is never more than this share of what is left under the limit. */
const SHARE_OF_LEFT = 32;

/**
 * This process's share of one shared count: an organization's monthly count of one meter, or a
 * key's count for the current second. Asking the shared counter for every event costs a round
 * trip and a Lua call each (measured: a quarter of the edge's CPU per request), so the edge
 * reserves a block and hands it out locally:
 *
 * - The block starts at 1 and doubles while blocks are used up within a second, halving when
 *   they last longer, so a quiet organization holds little and a busy one asks rarely; it is at
 *   least the number of requests waiting for it, and at most `maxBlock`.
 * - It is never more than 1/32 of what is left under the limit, so near the limit blocks shrink
 *   to single units and units stranded in an idle process are few. Monthly units go back to the
 *   shared count after `idleReleaseMs` without use (and on close), where other processes can
 *   take them; a second's units simply lapse with the second.
 * - The shared count never passes the limit, so the processes together never admit more than
 *   the limit; they may admit a little less while another process still holds units.
 * - The next block is asked for while half of the current one is left (prefetch), so a steady
 *   flow almost never waits for Redis.
 * - "Limit reached" is remembered for `exhaustedRecheckMs` (or until the period turns), so
 *   refusals cost no round trip; a raised limit (plan change) asks again at once.
 *
 * Every rule here is given `now` (epoch ms) by the gate and never reads a clock, so a test can
 * move time across a block, a recheck or a month without waiting.
 */
export class Lease {
  period = '';
  remaining = 0;
  block = 1;
  lastUse = 0;
  reservedAt = 0;
  /** The shared count after our last reservation: how much was left then. */
  usedAfterReserve = 0;
  exhaustedUntil = 0;
  exhaustedAtLimit = -1;
  /** Requests waiting for this lease's next block: the block is at least this big. */
  waiters = 0;
  pending: Promise<void> | undefined;
  /** When `pending` was asked for. */
  pendingSince = 0;

  constructor(
    /** `null` for a key's per-second rate window. */
    readonly meter: UsageMeter | null,
    /** The organization (quota) or the key (rate). */
    readonly subject: string,
  ) {}

  /** Starts a new period: whatever was held belonged to the last one, which is over. */
  turn(period: string): void {
    this.period = period;
    this.remaining = 0;
    this.usedAfterReserve = 0;
    this.exhaustedUntil = 0;
  }

  /** Whether "limit reached" still stands at `now` for this `limit` (a raised limit asks again). */
  exhausted(limit: number, now: number): boolean {
    return this.exhaustedUntil > now && this.exhaustedAtLimit >= limit;
  }

  /** One unit from what this process holds, if it holds any. */
  takeOne(now: number): boolean {
    if (this.remaining <= 0) return false;
    this.remaining -= 1;
    this.lastUse = now;
    return true;
  }

  /** Whether to ask for the next block now: half of this one is gone and nobody asked yet. */
  wantsPrefetch(limit: number, now: number): boolean {
    return this.remaining * 2 < this.block && this.pending === undefined && !this.exhausted(limit, now);
  }

  /** Records that a count was asked for at `now`. */
  asked(pending: Promise<void>, now: number): void {
    this.pending = pending;
    this.pendingSince = now;
  }

  /** A count outstanding for `failOpenMs` or longer: the counter is stuck, so do not wait for it. */
  stuck(now: number, failOpenMs: number): boolean {
    return this.pending !== undefined && now - this.pendingSince >= failOpenMs;
  }

  /**
   * Sizes the next block and answers how many units to ask for: the block grows while blocks
   * run out within a second and shrinks when they last longer, then is bounded as above.
   */
  nextWant(limit: number, maxBlock: number, now: number): number {
    if (this.reservedAt > 0)
      this.block = now - this.reservedAt < BLOCK_GROWTH_WINDOW_MS ? this.block * 2 : Math.ceil(this.block / 2);
    this.block = Math.min(Math.max(this.block, this.waiters), maxBlock);
    const left = Math.max(0, limit - this.usedAfterReserve);
    return Math.max(1, Math.min(this.block, Math.floor(left / SHARE_OF_LEFT)));
  }

  /**
   * Takes in the counter's answer to a reservation asked for in `period`. Units of a period that
   * turned while we asked are void. Answers whether units came (so the idle release must run).
   */
  received(period: string, answer: Reservation, limit: number, now: number, exhaustedRecheckMs: number): boolean {
    if (this.period !== period) return false;
    this.reservedAt = now;
    this.usedAfterReserve = answer.used;
    this.remaining += answer.granted;
    if (answer.granted === 0) {
      this.exhaustedUntil = now + exhaustedRecheckMs;
      this.exhaustedAtLimit = limit;
      return false;
    }
    this.exhaustedUntil = 0;
    return true;
  }

  /** Whether this lease holds monthly units unused since before `cutoff` (or at all, with `all`). */
  idle(all: boolean, cutoff: number): boolean {
    return this.pending === undefined && this.meter !== null && this.remaining > 0 && (all || this.lastUse < cutoff);
  }

  /** Hands back every unit held, to be released to the shared count; the block starts over. */
  surrender(): number {
    const units = this.remaining;
    this.remaining = 0;
    this.block = 1;
    this.reservedAt = 0;
    return units;
  }
}
