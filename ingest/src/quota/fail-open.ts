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

  /** Gives up on every count whose deadline has passed by the clock. */
  sweep(): void {
    const now = this.clock();
    for (const [token, w] of this.waiting) {
      if (w.deadline <= now) {
        this.waiting.delete(token);
        w.admit();
      }
    }
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
