import { quotaPeriod } from '@tracker/core';

/**
 * The periods of the gate's counts at a given time (epoch ms): the second of the rate limit and
 * the UTC month of the quota (as `quotaPeriod` names it). Each string is rebuilt only when its
 * period turns, since the edge asks for both on every request.
 */
export class Periods {
  private second = { value: -1, key: '' };
  private month = { from: 0, until: -1, key: '' };

  /** Epoch seconds as a string. */
  secondOf(now: number): string {
    const value = Math.floor(now / 1000);
    if (value !== this.second.value) this.second = { value, key: String(value) };
    return this.second.key;
  }

  monthOf(now: number): string {
    if (now < this.month.from || now >= this.month.until) {
      const at = new Date(now);
      this.month = {
        from: Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1),
        until: Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1),
        key: quotaPeriod(at),
      };
    }
    return this.month.key;
  }
}
