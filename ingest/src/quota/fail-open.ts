import type { Clock } from '@tracker/core';

/**
 * Counts in flight and when they give up: a count not answered within `failOpenMs` of the clock
 * admits its request uncounted. One sweeping timer for all of them, not one each; the timer only
 * decides how often the deadlines are looked at, the clock decides which have passed.
 */
export class FailOpenWaits {
  private readonly waiting = new Map<object, { deadline: number; admit: () => void }>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly failOpenMs: number,
  ) {}

  /** The counter's answer, or `onTimeout` if it has not come by the deadline. */
  bound(answer: Promise<boolean>, onTimeout: boolean): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const token = {};
      this.waiting.set(token, { deadline: this.clock() + this.failOpenMs, admit: () => resolve(onTimeout) });
      answer.then(resolve, reject).finally(() => this.waiting.delete(token));
      this.sweeper ??= setInterval(() => this.sweep(), Math.max(10, Math.min(100, this.failOpenMs / 4))).unref();
    });
  }

  /**
   * Gives up on every count whose deadline has passed by the clock, after letting pending I/O in
   * once: when the event loop itself stalled (a long GC, a long synchronous task), every deadline
   * passes at once, answers already waiting in the socket included, and admitting before they
   * are read let requests through uncounted (an organization over its quota got an event in).
   */
  sweep(): void {
    const now = this.clock();
    const expired: Array<[object, () => void]> = [];
    for (const [token, w] of this.waiting) if (w.deadline <= now) expired.push([token, w.admit]);
    if (expired.length > 0) {
      // setImmediate runs after the loop's poll phase, where an answer that came in is handled.
      setImmediate(() => {
        for (const [token, admit] of expired) {
          if (!this.waiting.delete(token)) continue; // answered meanwhile
          admit();
        }
        this.stopWhenIdle();
      });
    }
    this.stopWhenIdle();
  }

  private stopWhenIdle(): void {
    if (this.waiting.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** Admits everything still waiting: the gate is closing. */
  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const w of this.waiting.values()) w.admit();
    this.waiting.clear();
  }
}
