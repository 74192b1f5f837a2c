import type { Clock, DroppedCounts, MakeRequest, Stats } from './types';

export interface TransportOptions {
  makeRequest: MakeRequest;
  clock: Clock;
  retryDelaysMs: number[];
  timeoutMs: number;
  defaultRetryAfterMs: number;
  stats: Stats;
  /** Counts the reports given up on, by reason. */
  drops: DroppedCounts;
}

export interface Transport {
  /** Resolves when the report is delivered or given up on; never rejects. */
  send(url: string, key: string, body: string): Promise<void>;
  /** Counts `promise` as a report in flight for `flush` (one still being prepared). */
  track(promise: Promise<void>): void;
  /** True while a 429 pause for this URL runs: new reports for it are dropped, not queued. */
  isPaused(url: string): boolean;
  /** Waits for reports in flight, at most `timeoutMs`. True when all of them settled. */
  flush(timeoutMs: number): Promise<boolean>;
}

/** Does not hold a Node process open: a pending retry must not delay the host's exit. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms) as unknown as { unref?(): void };
    if (timer.unref) timer.unref();
  });
}

/**
 * Delivery rules (issue 3), in the spirit of Sentry's `createTransport(options, makeRequest)`:
 * the platform supplies the network call, this holds the policy.
 * - network error, timeout, 5xx: retried twice, with growing delays;
 * - 429: the report is dropped and the URL paused for `Retry-After`; reports made during the
 *   pause are dropped rather than queued, since a queue would only replay the overload;
 * - any other 4xx: dropped at once, a retry cannot fix a rejected body or credential.
 * The pause is per URL because quotas differ per kind (feedback does not count; docs/quotas.md).
 */
export function createTransport(options: TransportOptions): Transport {
  const { makeRequest, clock, stats, drops } = options;
  const pausedUntil: Record<string, number> = {};
  const inFlight = new Set<Promise<void>>();

  async function deliver(url: string, key: string, body: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      let status = 0;
      let retryAfterMs: number | undefined;
      try {
        const response = await makeRequest({ url, key, body, timeoutMs: options.timeoutMs });
        status = response.status;
        retryAfterMs = response.retryAfterMs;
      } catch {
        // network error or timeout: status stays 0, which retries
      }
      if (status >= 200 && status < 300) {
        stats.sent++;
        return;
      }
      if (status == 429) {
        pausedUntil[url] = clock.now() + (retryAfterMs ?? options.defaultRetryAfterMs);
      }
      if ((status && status < 500) || attempt >= options.retryDelaysMs.length) {
        stats.failed++;
        drops[
          status == 429 ? 'rate_limited' : status == 413 ? 'too_large' : status && status < 500 ? 'rejected' : 'network'
        ]++;
        return;
      }
      stats.retried++;
      await delay(options.retryDelaysMs[attempt]);
    }
  }

  function track(promise: Promise<void>): void {
    inFlight.add(promise);
    promise.then(() => inFlight.delete(promise));
  }

  return {
    send(url, key, body) {
      const promise = deliver(url, key, body).catch(() => {
        stats.internalErrors++;
      });
      track(promise);
      return promise;
    },
    track,
    isPaused(url) {
      return (pausedUntil[url] || 0) > clock.now();
    },
    flush(timeoutMs) {
      return new Promise((resolve) => {
        // Held open on purpose (the caller asked to wait), and cleared as soon as all settled.
        const timer = setTimeout(() => resolve(false), timeoutMs);
        void Promise.all(inFlight).then(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}
