import type { Clock, MakeRequest } from './types';

/**
 * Browsers refuse a keepalive request once the keepalive bodies in flight pass 64 KiB; such a
 * fetch rejects outright. Above this budget a report goes without keepalive instead of failing.
 */
const KEEPALIVE_BUDGET_BYTES = 60_000;

/** `Retry-After` is seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (!isNaN(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The one network call, shared by browser and Node (global `fetch`, Node >= 20). `keepalive`
 * lets a report made during `pagehide` outlive the page; Node accepts and ignores it. `clock`
 * reads an HTTP-date `Retry-After` against the same time as the pause it sets.
 */
export function createFetchRequest(clock: Clock = Date): MakeRequest {
  let keepaliveBytes = 0;
  return async ({ url, body, key, timeoutMs }) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs) as unknown as { unref?(): void };
    // A pending timeout must not keep a Node process alive on its own.
    if (timer.unref) timer.unref();
    const size = new TextEncoder().encode(body).length;
    const keepalive = keepaliveBytes + size <= KEEPALIVE_BUDGET_BYTES;
    if (keepalive) keepaliveBytes += size;
    try {
      const response = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json', Authorization: 'DSN ' + key },
        keepalive,
        signal: controller.signal,
      });
      // Free the connection (Node's undici holds it until the body is read or cancelled).
      if (response.body) response.body.cancel().catch(() => {});
      return {
        status: response.status,
        retryAfterMs: parseRetryAfter(response.headers.get('Retry-After'), clock.now()),
      };
    } finally {
      clearTimeout(timer as unknown as number);
      if (keepalive) keepaliveBytes -= size;
    }
  };
}
