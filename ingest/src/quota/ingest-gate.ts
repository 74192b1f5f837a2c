import { AppError, type Clock, type KeyInfo, type UsageMeter } from '@tracker/core';

/**
 * The ingest edge's admission check (docs/quotas.md): the key's events-per-second limit, then the
 * organization's monthly quota of the request's meter (`events` for errors, messages and vitals;
 * `logs` for log entries; `null` for what is never counted, such as feedback). Throws
 * `RATE_LIMITED` (429 with `Retry-After`) and consumes nothing when it refuses. Answers
 * synchronously (no promise) whenever it can decide from what this process holds, which is
 * almost every request once traffic flows: see `Lease`.
 */
export interface IngestGate {
  admit(key: KeyInfo, meter: UsageMeter | null): void | Promise<void>;
  close(): Promise<void>;
}

/**
 * A refusal of the gate: which limit refused (the key's per-second rate, or the organization's
 * monthly quota of a meter), so that an edge speaking another protocol can name it (Sentry's
 * `X-Sentry-Rate-Limits`, ingest/src/sentry/rate-limits.ts). A RATE_LIMITED AppError like any other.
 */
export class AdmissionRefusal extends AppError {
  constructor(
    message: string,
    retryAfter: number,
    readonly limit: 'key' | UsageMeter,
  ) {
    super('RATE_LIMITED', message, retryAfter);
  }
}

export interface IngestGateOptions {
  /** How long an organization's limits are trusted (default 5 s, so a plan change applies within 10 s). */
  planTtlMs?: number;
  /** Tests: the event limit for every organization instead of its plan's. */
  eventLimitOverride?: number;
  /** Tests: the log limit for every organization instead of its plan's. */
  logLimitOverride?: number;
  /**
   * How long a count may take before the request is admitted uncounted (default 500 ms): a slow
   * counter degrades to "accept", never to a stalled edge. Once a count has been outstanding
   * this long, later requests do not wait for it at all. Errors still fail the request.
   */
  failOpenMs?: number;
  /** Largest block of quota one process reserves at a time (default 256). */
  maxBlock?: number;
  /** Unused reserved units go back to the shared count after this long without use (default 2 s). */
  idleReleaseMs?: number;
  /** After the count says "limit reached", refuse locally for this long before asking again (default 1 s). */
  exhaustedRecheckMs?: number;
  /**
   * The time every rule of the gate reads: the month and second of the counts, lease expiry,
   * fail-open deadlines, the plan cache (default the wall clock). Timers still fire in real
   * time; they only decide how often the gate looks at this clock.
   */
  clock?: Clock;
}
