import type { Clock } from './types';

/**
 * Sliding-window cap: `take()` answers whether one more report fits in the last `windowMs`.
 * A sliding window (not fixed minutes) so a burst at a minute boundary cannot send twice
 * the cap.
 */
export function createRateCap(limit: number, windowMs: number, clock: Clock): () => boolean {
  const times: number[] = [];
  return () => {
    const now = clock.now();
    while (times.length && now - times[0] >= windowMs) times.shift();
    if (times.length >= limit) return false;
    times.push(now);
    return true;
  };
}
