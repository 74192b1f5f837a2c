/**
 * The sliding-window counter (the approximation Cloudflare and others use): the count of the
 * previous fixed window, weighted by how much of it still overlaps the sliding window, plus the
 * count of the current one. Two integers per subject, no burst of 2× the limit at a window
 * boundary as a plain fixed window allows.
 */
export function slidingEstimate(prev: number, curr: number, elapsedMs: number, windowMs: number): number {
  return (prev * (windowMs - elapsedMs)) / windowMs + curr;
}

/**
 * How long until one more request fits, for a refused request: `prev` and `curr` are the two
 * windows' counts, `elapsedMs` how far the current window is. Whole seconds, at least 1 (the
 * `Retry-After` header).
 */
export function retryAfterSeconds(
  prev: number,
  curr: number,
  elapsedMs: number,
  limit: number,
  windowMs: number,
): number {
  const room = limit - 1; // the estimate must be at most this before the request is counted
  let waitMs: number;
  if (curr <= room && prev > 0) {
    // Within this window, once enough of the previous one has slid out.
    waitMs = windowMs - elapsedMs - (windowMs * (room - curr)) / prev;
  } else {
    // Not before the next window, where this window's count becomes the weighted one.
    const intoNext = curr > 0 ? windowMs - (windowMs * Math.max(0, room)) / curr : 0;
    waitMs = windowMs - elapsedMs + intoNext;
  }
  return Math.max(1, Math.ceil(waitMs / 1000));
}
