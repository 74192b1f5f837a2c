/** Severity of an error event or message (docs/wire.md). */
export type Level = 'error' | 'warning' | 'info' | 'fatal';

/** Severity of a structured log record; `warning` is accepted as an alias of `warn`. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type Tags = Record<string, string>;

export interface User {
  id?: string | number;
  email?: string;
  [key: string]: unknown;
}

/** Options shared by every platform's `init`. */
export interface BaseInitOptions {
  /** `https://et_<key>@<host>/<projectId>`, or a bare `et_<key>` together with `endpoint`. */
  dsn?: string;
  /** Full error-ingest URL, path ending in `/ingest/error`. Derived from a URL DSN otherwise. */
  endpoint?: string;
  /** Default `production`. */
  environment?: string;
  /** No fallback of its own: unset means the events carry no release. */
  release?: string;
  tags?: Tags;
  /**
   * Default true: record breadcrumbs (what the page or process did before an error: clicks,
   * navigations, console warnings and errors, HTTP requests, earlier captures) and send the last
   * 50 with each error event. False records and sends none.
   */
  breadcrumbs?: boolean;
  /** @internal Test hooks; never part of the public contract. */
  _internal?: InternalOptions;
}

/** Per-call data: nothing dynamic is kept in global state. */
export interface CaptureOptions {
  tags?: Tags;
  context?: Record<string, unknown>;
  user?: User;
  level?: Level;
  /**
   * Groups events with the same fingerprint into one issue instead of the automatic key. A
   * string is the one-entry array: `'checkout'` and `['checkout']` group together.
   * `'{{ default }}'` as an entry stands for the automatic key.
   */
  fingerprint?: string | string[];
  release?: string;
  url?: string;
}

/** Severity of a breadcrumb (docs/wire.md). */
export type BreadcrumbLevel = 'debug' | 'info' | 'warning' | 'error' | 'fatal';

/** One thing that happened before an event, sent in its `breadcrumbs` (docs/wire.md). */
export interface Breadcrumb {
  /** ISO 8601. */
  timestamp: string;
  /** `ui.click`, `navigation`, `console`, `fetch`, `xhr`, `http`, `tracker`; at most 64 characters. */
  category: string;
  /** At most 1,024 characters. */
  message?: string;
  level?: BreadcrumbLevel;
  /** Flat values only; URLs without their query string. */
  data?: Record<string, string | number | boolean>;
}

export interface FeedbackInput {
  message: string;
  email?: string;
  eventId?: string;
}

export interface Logger {
  debug(message: string, context?: Record<string, unknown>): Promise<void>;
  info(message: string, context?: Record<string, unknown>): Promise<void>;
  warn(message: string, context?: Record<string, unknown>): Promise<void>;
  warning(message: string, context?: Record<string, unknown>): Promise<void>;
  error(message: string, context?: Record<string, unknown>): Promise<void>;
}

/** The SDK's own bookkeeping: it swallows its failures and counts them here. */
export interface Stats {
  /** Requests answered 2xx. */
  sent: number;
  /** Requests that failed for good (after retries, 4xx, 429, serialization). */
  failed: number;
  /** Retry attempts made. */
  retried: number;
  /** Reports dropped before sending: duplicate, rate cap, 429 pause (by reason: `getDroppedCounts()`). */
  dropped: number;
  /** Exceptions caught inside the SDK itself. */
  internalErrors: number;
}

/**
 * Why a report never reached the server, in the spirit of Sentry's client reports:
 * - `duplicate`: the same error within the de-duplication window (sent once);
 * - `rate_cap`: over the browser's per-page cap of errors or logs;
 * - `rate_limited`: answered 429, or made while a 429's `Retry-After` pause runs;
 * - `network`: no answer, or a 5xx, after the last retry;
 * - `too_large`: answered 413;
 * - `rejected`: answered another 4xx (a bad DSN or body; a retry cannot fix it);
 * - `unserializable`: the report could not be encoded as JSON.
 */
export type DropReason =
  'duplicate' | 'rate_cap' | 'rate_limited' | 'network' | 'too_large' | 'rejected' | 'unserializable';

/** Reports dropped since the page or process started, one count per report, by reason. */
export type DroppedCounts = Record<DropReason, number>;

export interface Clock {
  now(): number;
}

/**
 * Knobs for tests: time windows and delays shrink so the rules can be shown without long
 * sleeps. The public defaults are the constants in `constants.ts`.
 */
export interface InternalOptions {
  clock?: Clock;
  dedupWindowMs?: number;
  rateWindowMs?: number;
  retryDelaysMs?: number[];
  timeoutMs?: number;
  defaultRetryAfterMs?: number;
  makeRequest?: MakeRequest;
}

export interface TransportRequest {
  url: string;
  body: string;
  key: string;
  timeoutMs: number;
}

/** Status code, plus `Retry-After` in ms when the answer is 429. Rejects on network error or timeout. */
export interface TransportResponse {
  status: number;
  retryAfterMs?: number;
}

export type MakeRequest = (request: TransportRequest) => Promise<TransportResponse>;
