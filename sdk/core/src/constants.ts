/** Identical errors within this window are sent once (issue 3). */
export const DEDUP_WINDOW_MS = 60_000;
/** The browser sends at most this many errors, and as many logs, per window per page. */
export const RATE_CAP_PER_WINDOW = 60;
export const RATE_WINDOW_MS = 60_000;
/** Two retries after the first attempt; the delay grows so a struggling server gets air. */
export const RETRY_DELAYS_MS = [1_000, 3_000];
/** A request that has not answered by then counts as failed (and is retried). */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Pause used when a 429 carries no readable `Retry-After` (e.g. a CORS-hidden header). */
export const DEFAULT_RETRY_AFTER_MS = 60_000;
/** Distinct errors remembered for de-duplication; the oldest is forgotten first. */
export const DEDUP_MAX_KEYS = 100;
