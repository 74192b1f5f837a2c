import { AppError } from '@tracker/core';

/** The most a database queue may hold before the edge answers 503; 0 turns a dimension off. */
export interface BacklogLimits {
  /** Items waiting (errors, logs, vitals reports, feedback: one row each). */
  maxItems: number;
  /** Their payloads' bytes. */
  maxBytes: number;
}

/** Retry-After bounds, seconds: at least a beat, at most what a client should reasonably wait. */
const MIN_RETRY_AFTER_S = 1;
const MAX_RETRY_AFTER_S = 30;

/**
 * The backlog of a database queue as this process knows it: the last count read from the table
 * (`recount`, every second), plus what this process enqueued and acked since. The count is
 * exact for the embedded runtime (one process); with several processes on one PostgreSQL it
 * lags the others by up to a second, so the bound is soft there by that much.
 *
 * Why a bound at all: in embedded mode the queue is a table in the same single-connection
 * database the worker writes, so a backlog that grows without end slows every claim and every
 * enqueue until the edge's accept rate falls round after round (issue 21). Refusing early with
 * 503 + Retry-After keeps the edge answering fast and tells SDKs to come back; a 202 stays a
 * promise because nothing already accepted is ever dropped.
 */
export class BacklogBound {
  private items = 0;
  private bytes = 0;
  /** Enqueued but not yet committed (a group commit in flight): counted against the bound too. */
  private pendingItems = 0;
  private pendingBytes = 0;
  private removedSinceTick = 0;
  private lastTick: number | undefined;
  /** Items removed per second (acked or set aside), smoothed: the drain rate Retry-After uses. */
  private drainPerS = 0;
  private refusedCount = 0;

  constructor(
    readonly limits: BacklogLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Throws UNAVAILABLE when the backlog is at or over a limit, or when `incoming` items (one
   * request's: an envelope of N events counts N) would take it past the item limit: such a
   * request is refused whole, never cut. Into an empty backlog a request is always let in, so a
   * bound set below the largest request a door takes cannot shut that door for good.
   */
  check(incoming = 1): void {
    const items = this.items + this.pendingItems;
    const bytes = this.bytes + this.pendingBytes;
    const max = this.limits.maxItems;
    const over =
      (max > 0 && (items >= max || (items > 0 && items + incoming > max))) ||
      (this.limits.maxBytes > 0 && bytes >= this.limits.maxBytes);
    if (!over) return;
    this.refusedCount += 1;
    throw new AppError(
      'UNAVAILABLE',
      `ingest is behind: ${items} items (${Math.round(bytes / 1024)} KB) are waiting to be stored; retry later`,
      this.retryAfterS(items, bytes),
    );
  }

  /** Requests refused by the bound since start. */
  get refused(): number {
    return this.refusedCount;
  }

  get backlog(): { items: number; bytes: number } {
    return { items: this.items + this.pendingItems, bytes: this.bytes + this.pendingBytes };
  }

  enqueuing(items: number, bytes: number): void {
    this.pendingItems += items;
    this.pendingBytes += bytes;
  }

  /** A group commit ended: committed rows join the backlog, failed ones are forgotten. */
  enqueued(items: number, bytes: number, committed: boolean): void {
    this.pendingItems -= items;
    this.pendingBytes -= bytes;
    if (committed) {
      this.items += items;
      this.bytes += bytes;
    }
  }

  /** Rows deleted from the queue (acked, or moved to the dead letters). */
  removed(items: number, bytes: number): void {
    this.items = Math.max(0, this.items - items);
    this.bytes = Math.max(0, this.bytes - bytes);
    this.removedSinceTick += items;
  }

  /** The table's own count, read now: replaces what this process had summed since the last one. */
  recounted(items: number, bytes: number): void {
    const t = this.now();
    if (this.lastTick !== undefined && t > this.lastTick) {
      const rate = (this.removedSinceTick * 1000) / (t - this.lastTick);
      this.drainPerS = this.drainPerS === 0 ? rate : 0.7 * this.drainPerS + 0.3 * rate;
    }
    this.lastTick = t;
    this.removedSinceTick = 0;
    this.items = items;
    this.bytes = bytes;
  }

  /**
   * How long until the backlog is back under 90 % of its limit at the recent drain rate; the
   * maximum when nothing drains (a stalled worker).
   */
  private retryAfterS(items: number, bytes: number): number {
    const excessItems = this.limits.maxItems > 0 ? items - 0.9 * this.limits.maxItems : 0;
    const excessBytes =
      this.limits.maxBytes > 0 && bytes > 0 ? ((bytes - 0.9 * this.limits.maxBytes) / bytes) * items : 0;
    const excess = Math.max(excessItems, excessBytes, 1);
    if (this.drainPerS < 1) return MAX_RETRY_AFTER_S;
    return Math.min(MAX_RETRY_AFTER_S, Math.max(MIN_RETRY_AFTER_S, Math.ceil(excess / this.drainPerS)));
  }
}
