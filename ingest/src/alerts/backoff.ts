/** Attempts per delivery, the first included; after the last failure the delivery is `failed`. */
export const MAX_DELIVERY_ATTEMPTS = 10;
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_CAP_MS = 60 * 60_000;

/**
 * How long to wait after failed attempt number `attempt` (1 = the first attempt failed) before
 * the next: nominal 30 s × 2^(attempt−1), capped at 1 h, with "equal jitter" (a uniformly random
 * value between half and all of the nominal delay) so receivers that came back are not hit by
 * every queued alert at once. Nominal: 30 s, 1 m, 2 m, 4 m, 8 m, 16 m, 32 m, 1 h, 1 h: ten
 * attempts span about 1.5–3 hours. If the target sent `Retry-After` (`DeliveryError.retryAfterMs`),
 * wait `Math.max(backoffDelayMs(n), Math.min(retryAfterMs, BACKOFF_CAP_MS))`.
 */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const n = Number.isFinite(attempt) ? Math.max(1, Math.floor(attempt)) : 1;
  const nominal = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(n - 1, 30));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(nominal / 2 + (r * nominal) / 2);
}
