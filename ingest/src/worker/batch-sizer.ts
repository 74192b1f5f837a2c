/**
 * Sizes the worker's batches so that one transaction holds the database for about `targetMs`.
 *
 * On PGlite (embedded mode) the database runs on the server's own thread behind one connection:
 * while a batch's transaction runs, the edge cannot write what it accepts, so every request waits
 * for it. A fixed batch of 500 held the connection for a second or more under load (p99 of the
 * edge in the hundreds of ms); a batch sized by time keeps each wait short and lets the edge's
 * group-committed enqueue in between. The cost per event is learnt as it runs (moving average),
 * since it depends on the machine, the events and the size of the database.
 */
export class BatchSizer {
  private msPerEvent: number | undefined;

  constructor(
    private readonly max: number,
    private readonly targetMs: number,
    private readonly min = Math.min(10, max),
  ) {}

  /** How many messages to receive for the next batch. */
  next(): number {
    // Until a batch has been timed, start small: a first batch of `max` is the slowest of all
    // (cold caches, code not yet optimised), exactly when a fresh server is being flooded.
    if (this.msPerEvent === undefined) return this.min;
    return Math.max(this.min, Math.min(this.max, Math.floor(this.targetMs / this.msPerEvent)));
  }

  /** Records that a transaction of `events` messages took `ms`. */
  record(events: number, ms: number): void {
    if (events <= 0) return;
    const sample = ms / events;
    // Weighted toward the latest batches, so a database that grows or a busier machine shows quickly.
    this.msPerEvent = this.msPerEvent === undefined ? sample : this.msPerEvent * 0.7 + sample * 0.3;
  }
}
