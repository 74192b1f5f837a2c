/**
 * How long failed deliveries are retried: until an hour after the first attempt. The last
 * attempt is made at the hour (a delay that would pass it is cut short); if it fails too, the
 * delivery is `failed`. An alert older than that is stale news, and a receiver down for an
 * hour needs a person, whom the failing-rule warning on the Alerts page tells.
 */
export const RETRY_WINDOW_MS = 60 * 60_000;
/**
 * A backstop on attempts per delivery, the first included (usage-warning emails use it as their
 * only bound). An alert's hour ends first: 8 or 9 attempts, depending on the jitter.
 */
export const MAX_DELIVERY_ATTEMPTS = 10;
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_CAP_MS = 60 * 60_000;

/**
 * How long to wait after failed attempt number `attempt` (1 = the first attempt failed) before
 * the next: nominal 30 s × 2^(attempt−1), capped at 1 h, with "equal jitter" (a uniformly
 * random value between half and all of the nominal delay) so receivers that came back are not
 * hit by every queued alert at once. Nominal: 30 s, 1 m, 2 m, 4 m, 8 m, 16 m, 32 m, 1 h.
 */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const n = Number.isFinite(attempt) ? Math.max(1, Math.floor(attempt)) : 1;
  const nominal = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(n - 1, 30));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(nominal / 2 + (r * nominal) / 2);
}

/**
 * When to try a failed delivery again (epoch ms), or null to give up: after attempt `attempt`
 * failed at `now`, wait `backoff(attempt)`, or the target's `Retry-After` when longer (at most
 * the cap), but never past `firstAttemptAt + RETRY_WINDOW_MS`; at or past it, give up.
 * `now` is the dispatcher's clock (decision 021), so a test moves time instead of waiting.
 */
export function nextRetryAt(input: {
  attempt: number;
  firstAttemptAt: number;
  now: number;
  retryAfterMs?: number | null;
  backoff?: (attempt: number) => number;
}): number | null {
  const deadline = input.firstAttemptAt + RETRY_WINDOW_MS;
  if (input.attempt >= MAX_DELIVERY_ATTEMPTS || input.now >= deadline) return null;
  const hinted = input.retryAfterMs ? Math.min(input.retryAfterMs, BACKOFF_CAP_MS) : 0;
  const delay = Math.max((input.backoff ?? backoffDelayMs)(input.attempt), hinted);
  return Math.min(input.now + delay, deadline);
}
