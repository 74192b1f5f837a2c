import { AppError, systemClock, type Clock } from '@tracker/core';

/** Check-ins one monitor may send per second at one edge process; a cron job needs a few a minute. */
export const CHECK_INS_PER_SECOND = 10;
const MAX_TRACKED = 10_000;

/**
 * A per-monitor limit on check-ins (issue 33): a loop calling the ping URL, or a flood, is
 * answered 429 with `Retry-After` instead of filling the queue. Fixed one-second windows per
 * `projectId/slug`, in this process's memory: each edge process limits on its own (a limit
 * over several edges is the key's rate limit's job; docs/monitors.md).
 */
export class CheckInLimiter {
  private readonly windows = new Map<string, { second: number; count: number }>();
  constructor(
    private readonly perSecond = CHECK_INS_PER_SECOND,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Throws RATE_LIMITED (429, Retry-After 1) past the limit. */
  admit(projectId: string, slug: string): void {
    const second = Math.floor(this.clock() / 1000);
    const key = `${projectId}/${slug}`;
    let w = this.windows.get(key);
    if (!w || w.second !== second) {
      if (!w && this.windows.size >= MAX_TRACKED) this.sweep(second);
      w = { second, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    if (w.count > this.perSecond) {
      throw new AppError(
        'RATE_LIMITED',
        `monitor ${slug}: more than ${this.perSecond} check-ins in a second; slow down`,
        1,
      );
    }
  }

  private sweep(second: number): void {
    for (const [k, w] of this.windows) if (w.second !== second) this.windows.delete(k);
    if (this.windows.size >= MAX_TRACKED) this.windows.clear();
  }
}
