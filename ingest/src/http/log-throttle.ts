import { systemClock, type Clock } from '@tracker/core';

/** One line per this long at most, for a failure that repeats on every request. */
export const FAILURE_LOG_INTERVAL_MS = 10_000;

/**
 * At most one log line per interval for a failure that every request meets during an outage (a
 * stopped PostgreSQL made 1,804 "ingest request failed" lines in 15 s: issue 28). The line
 * written says how many were held back since the one before; the requests themselves are
 * counted in `/metrics` (`tracker_ingest_dropped_total{reason="unavailable"}`).
 */
export class LogThrottle {
  private last = Number.NEGATIVE_INFINITY;
  private held = 0;

  constructor(
    private readonly intervalMs = FAILURE_LOG_INTERVAL_MS,
    private readonly clock: Clock = systemClock,
  ) {}

  /** `undefined`: stay quiet; a number: write the line, with that many held back before it. */
  take(): number | undefined {
    const now = this.clock();
    if (now - this.last < this.intervalMs) {
      this.held += 1;
      return undefined;
    }
    this.last = now;
    const held = this.held;
    this.held = 0;
    return held;
  }
}

/**
 * Unexpected failures of ingest requests (answered 503), for the whole process: the fastify
 * routes' error handler, the fast path and Sentry's routes share it, so an outage writes one
 * line per interval whichever door the requests came through.
 */
export const ingestFailureLog = new LogThrottle();
