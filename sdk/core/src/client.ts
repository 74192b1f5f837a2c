import {
  DEDUP_MAX_KEYS,
  DEDUP_WINDOW_MS,
  DEFAULT_RETRY_AFTER_MS,
  RATE_CAP_PER_WINDOW,
  RATE_WINDOW_MS,
  REQUEST_TIMEOUT_MS,
  RETRY_DELAYS_MS,
} from './constants';
import { addBreadcrumb, readBreadcrumbs, setBreadcrumbsOn, stripQuery } from './breadcrumbs';
import { createDeduplicator, type Deduplicator } from './create-deduplicator';
import { createEventId } from './create-event-id';
import { createFetchRequest } from './create-fetch-request';
import { createRateCap } from './create-rate-cap';
import { createTransport, type Transport } from './create-transport';
import { deriveEndpoints, type Endpoints } from './derive-endpoints';
import { normalizeThrown, type NormalizedError } from './normalize-thrown';
import { parseDsn } from './parse-dsn';
import { readCauses } from './read-causes';
import type {
  BaseInitOptions,
  CaptureOptions,
  DroppedCounts,
  DropReason,
  FeedbackInput,
  Logger,
  LogLevel,
  Stats,
} from './types';

/** What a platform (browser, Node) tells the core about itself. */
export interface Platform {
  name: string;
  version: string;
  /** The browser caps errors and logs per page; Node does not. */
  capped?: boolean;
  /** Default `url` of an event (the browser's current page). */
  url?(): string | undefined;
  /**
   * Context every event carries, under the keys the server reads (docs/ingest.md): the
   * browser's `userAgent`, Node's `runtime` and `os`. The call's own `context` keys win.
   */
  context?(): Record<string, unknown>;
  /**
   * Node: completes an error event before it is sent, with what needs I/O (source lines read
   * from disk) or options only that platform knows (`request`). Must settle within a bounded
   * time and never reject; `flush` waits for it.
   */
  prepare?(event: Record<string, unknown>, options: CaptureOptions): Promise<void> | undefined;
}

interface State {
  key: string;
  options: BaseInitOptions;
  endpoints: Endpoints;
  transport: Transport;
  dedup: Deduplicator;
  errorCap?: () => boolean;
  logCap?: () => boolean;
}

// One client per bundle: the platform packages each carry their own copy of this module.
let state: State | null = null;
let platform: Platform;
let lastId: string | undefined;
const stats: Stats = { sent: 0, failed: 0, retried: 0, dropped: 0, internalErrors: 0 };
const drops: DroppedCounts = {
  duplicate: 0,
  rate_cap: 0,
  rate_limited: 0,
  network: 0,
  too_large: 0,
  rejected: 0,
  unserializable: 0,
};

/** A report dropped before sending: `stats.dropped` keeps counting these, all reasons together. */
function drop(reason: DropReason): void {
  stats.dropped++;
  drops[reason]++;
}

/** True when an option set was usable; false leaves the SDK a silent no-op. */
export function initClient(options: BaseInitOptions, on: Platform): boolean {
  const ok = startClient(options, on);
  // A second init that keeps them on keeps the history recorded so far.
  setBreadcrumbsOn(ok && options.breadcrumbs !== false);
  return ok;
}

function startClient(options: BaseInitOptions, on: Platform): boolean {
  platform = on;
  state = null;
  try {
    const dsn = parseDsn(options && options.dsn, options && options.endpoint);
    if (!dsn) return false;
    const internal = options._internal || {};
    const clock = internal.clock || Date;
    const windowMs = internal.rateWindowMs || RATE_WINDOW_MS;
    state = {
      key: dsn.key,
      options,
      endpoints: deriveEndpoints(dsn.endpoint),
      transport: createTransport({
        makeRequest: internal.makeRequest || createFetchRequest(clock),
        clock,
        retryDelaysMs: internal.retryDelaysMs || RETRY_DELAYS_MS,
        timeoutMs: internal.timeoutMs || REQUEST_TIMEOUT_MS,
        defaultRetryAfterMs: internal.defaultRetryAfterMs || DEFAULT_RETRY_AFTER_MS,
        stats,
        drops,
      }),
      dedup: createDeduplicator(internal.dedupWindowMs || DEDUP_WINDOW_MS, DEDUP_MAX_KEYS, clock),
    };
    if (on.capped) {
      state.errorCap = createRateCap(RATE_CAP_PER_WINDOW, windowMs, clock);
      state.logCap = createRateCap(RATE_CAP_PER_WINDOW, windowMs, clock);
    }
    return true;
  } catch {
    stats.internalErrors++;
    return false;
  }
}

export function isEnabled(): boolean {
  return !!state;
}

/**
 * True for a request to one of this SDK's own endpoints: the platforms' HTTP breadcrumbs leave
 * those out (an ingest answering 429 is not something the app did).
 */
export function isOwnRequest(url: string): boolean {
  const endpoints = state && state.endpoints;
  const bare = stripQuery(url);
  for (const k in endpoints) if (stripQuery(endpoints[k as keyof Endpoints]!) == bare) return true;
  return false;
}

function serialize(payload: Record<string, unknown>): string | undefined {
  try {
    return JSON.stringify(payload);
  } catch {
    // circular or BigInt context: keep the report, lose only what cannot be encoded
    payload.context = { unserializable: true };
    try {
      return JSON.stringify(payload);
    } catch {
      return undefined;
    }
  }
}

function post(url: string | undefined, payload: Record<string, unknown>, cap?: () => boolean): Promise<void> {
  if (!state || !url) return Promise.resolve();
  if (state.transport.isPaused(url)) drop('rate_limited');
  else if (cap && !cap()) drop('rate_cap');
  else {
    const body = serialize(payload);
    if (body != null) return state.transport.send(url, state.key, body);
    stats.failed++;
    drops.unserializable++;
  }
  return Promise.resolve();
}

function common(release?: string, tags?: Record<string, string>) {
  const options = state!.options;
  return {
    environment: options.environment || 'production',
    release: release || options.release,
    tags: { ...options.tags, ...tags },
  };
}

function captureEvent(read: () => NormalizedError, options: CaptureOptions | undefined, handled: boolean): string {
  const id = createEventId();
  try {
    if (!state) return id;
    // Read inside the try: a thrown Proxy or a getter that throws must not reach the app.
    const error = read();
    const o = options || {};
    const level = o.level || 'error';
    const url = state.endpoints.error;
    const fingerprint = typeof o.fingerprint == 'string' ? [o.fingerprint] : o.fingerprint;
    const key = [error.type, error.message, error.stack, level, fingerprint && JSON.stringify(fingerprint)].join('\n');
    const previous = state.dedup.findRecent(key);
    if (previous) {
      drop('duplicate');
      return (lastId = previous);
    }
    // Checked here as well as in post() so that a dropped event is not remembered as sent.
    if (state.transport.isPaused(url)) {
      drop('rate_limited');
      return id;
    }
    if (state.errorCap && !state.errorCap()) {
      drop('rate_cap');
      return id;
    }
    state.dedup.remember(key, id);
    lastId = id;
    const event: Record<string, unknown> = {
      eventId: id,
      ...error,
      breadcrumbs: readBreadcrumbs(),
      level,
      handled,
      fingerprint: o.fingerprint,
      context: platform.context ? { ...platform.context(), ...o.context } : o.context,
      user: o.user,
      url: o.url || (platform.url && platform.url()),
      ...common(o.release, o.tags),
      timestamp: new Date().toISOString(),
      sdk: { name: platform.name, version: platform.version },
    };
    // Without `prepare` (the browser) the request starts now, so an event is on the wire before
    // any feedback the app sends for it right after.
    const ready = platform.prepare && platform.prepare(event, o);
    if (ready) state.transport.track(ready.then(() => post(url, event)));
    else void post(url, event);
    addBreadcrumb({ category: 'tracker', message: error.type + ': ' + error.message, level });
  } catch {
    stats.internalErrors++;
  }
  return id;
}

/** Any thrown value; returns the event id (for a duplicate, the id of the event already sent). */
export function captureException(value: unknown, options?: CaptureOptions): string {
  return captureEvent(() => readThrown(value), options, true);
}

/** For the platforms' global hooks: marks the event unhandled. */
export function captureUnhandled(value: unknown, options?: CaptureOptions): string {
  return captureEvent(() => readThrown(value), options, false);
}

function readThrown(value: unknown): NormalizedError {
  return { ...normalizeThrown(value), causes: readCauses(value) };
}

export function captureMessage(message: string, options?: CaptureOptions): string {
  return captureEvent(() => ({ type: 'Message', message: String(message) }), options, true);
}

function log(level: LogLevel, message: string, context?: Record<string, unknown>): Promise<void> {
  try {
    if (!state) return Promise.resolve();
    return post(
      state.endpoints.log,
      { level, message: String(message), context, ...common(), timestamp: new Date().toISOString() },
      state.logCap,
    );
  } catch {
    stats.internalErrors++;
    return Promise.resolve();
  }
}

/** Structured logs to `/ingest/log`; each call resolves once delivered or given up on. */
export const logger: Logger = {
  debug: (message, context) => log('debug', message, context),
  info: (message, context) => log('info', message, context),
  warn: (message, context) => log('warn', message, context),
  warning: (message, context) => log('warn', message, context),
  error: (message, context) => log('error', message, context),
};

/** Linked to `eventId`, else to the last event; sent only when the endpoint ends in `/ingest/error`. */
export function captureFeedback(feedback: FeedbackInput): Promise<void> {
  try {
    if (!state || !feedback) return Promise.resolve();
    return post(state.endpoints.feedback, {
      message: String(feedback.message),
      email: feedback.email,
      eventId: feedback.eventId || lastId,
    });
  } catch {
    stats.internalErrors++;
    return Promise.resolve();
  }
}

/** One Web Vitals report (browser). */
export function sendVitals(url: string, metrics: Record<string, number>): Promise<void> {
  try {
    if (!state) return Promise.resolve();
    return post(state.endpoints.vitals, { url, metrics, ...common() });
  } catch {
    stats.internalErrors++;
    return Promise.resolve();
  }
}

export function lastEventId(): string | undefined {
  return lastId;
}

/** Waits up to `timeoutMs` for reports in flight; true when all settled. */
export function flush(timeoutMs = 2_000): Promise<boolean> {
  return state ? state.transport.flush(timeoutMs) : Promise.resolve(true);
}

/** Flushes, then turns the SDK off until the next `init`. */
export async function closeClient(timeoutMs = 2_000): Promise<boolean> {
  const done = await flush(timeoutMs);
  state = null;
  setBreadcrumbsOn(false);
  return done;
}

export function getStats(): Stats {
  return { ...stats };
}

/**
 * Reports that never reached the server since the page or process started, by reason (one
 * count per report): duplicates, rate caps, 429s, network failures after retries, 413s, other
 * 4xx, unencodable reports.
 */
export function getDroppedCounts(): DroppedCounts {
  return { ...drops };
}

/** A cron check-in (docs/monitors.md); `config` creates or updates the monitor, like Sentry's monitor_config. */
export interface CheckInInput {
  slug: string;
  status: 'in_progress' | 'ok' | 'error';
  /** The id an `in_progress` returned, to close that run; absent = a new one. */
  checkInId?: string;
  /** Milliseconds the run took. */
  duration?: number;
  environment?: string;
}

export interface MonitorConfig {
  crontab?: string;
  timezone?: string;
  intervalMinutes?: number;
  checkinMarginMinutes?: number;
  maxRuntimeMinutes?: number;
  failureTolerance?: number;
  recoveryThreshold?: number;
}

/**
 * Sends a check-in to `/ingest/monitor/<slug>` on the endpoint's origin; returns its id at once
 * (made here, so an `in_progress` can be closed without waiting for the answer). Never throws.
 */
export function sendCheckIn(input: CheckInInput, config?: MonitorConfig): string {
  const id = (input && input.checkInId) || createEventId();
  try {
    if (!state || !input || !input.slug) return id;
    const url = new URL(state.endpoints.log);
    url.pathname = `/ingest/monitor/${encodeURIComponent(input.slug)}`;
    url.searchParams.set('status', input.status);
    url.searchParams.set('checkInId', id);
    url.searchParams.set('environment', input.environment || state.options.environment || 'production');
    if (typeof input.duration === 'number')
      url.searchParams.set('duration', String(Math.max(0, Math.round(input.duration))));
    void post(url.href, config ? { monitorConfig: config } : {});
  } catch {
    stats.internalErrors++;
  }
  return id;
}
