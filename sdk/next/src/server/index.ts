import * as Node from '@tracker/node';
import type { CaptureOptions, DroppedCounts, FeedbackInput, Logger, Stats } from '@tracker/node';
import { describeRequestError, type RequestErrorContext, type RequestErrorRequest } from './on-request-error';
import { resolveServerOptions, type NextServerOptions } from './resolve-server-options';
import { currentSdk, findPublishedSdk, publishSdk } from './shared-sdk';

export type {
  CaptureOptions,
  DroppedCounts,
  DropReason,
  FeedbackInput,
  Level,
  Logger,
  LogLevel,
  Stats,
  Tags,
  User,
} from '@tracker/node';
export type { NextServerOptions, RequestErrorContext, RequestErrorRequest };
export { SDK_VERSION } from '../version';

// Read as the literal `process.env.NEXT_RUNTIME`: Next's bundlers replace that expression per
// compilation (`'edge'` in the edge bundle), and an edge runtime may not expose process.env.
function currentRuntime(): string | undefined {
  try {
    return process.env.NEXT_RUNTIME;
  } catch {
    return undefined;
  }
}

/**
 * Call from `register()` in `instrumentation.ts` (or export it as `register`). Starts the Node
 * SDK only in Next's Node.js runtime and only with a DSN (`TRACKER_DSN`, or `options.dsn`);
 * elsewhere, the edge runtime included, it does nothing. `exitOnFatal` defaults to false.
 */
export function register(options: NextServerOptions = {}): void {
  try {
    const resolved = resolveServerOptions(options || {}, process.env, currentRuntime());
    if (!resolved) return;
    Node.init(resolved);
    publishSdk(Node);
  } catch {
    // never into the host app
  }
}

/**
 * Export as `onRequestError` from `instrumentation.ts`: Next calls it for errors of server
 * components, route handlers, server actions (and middleware). Under the same conditions as
 * `register()` it reports the error with the route, router kind, route type and render source
 * in `context.next` (plus `next.*` tags); request headers are never read.
 */
export function onRequestError(error: unknown, request: RequestErrorRequest, context: RequestErrorContext): void {
  try {
    if (currentRuntime() !== 'nodejs') return;
    // An app that exports onRequestError but not register() still reports, from TRACKER_DSN.
    if (!findPublishedSdk()) register();
    const sdk = findPublishedSdk();
    if (sdk) sdk.captureException(error, describeRequestError(error, request, context));
  } catch {
    // never into the host app
  }
}

/** As in `@tracker/node`; sent through the SDK `register()` started. Returns the event id. */
export function captureException(value: unknown, options?: CaptureOptions): string {
  return currentSdk().captureException(value, options);
}

/** As in `@tracker/node`; sent through the SDK `register()` started. Returns the event id. */
export function captureMessage(message: string, options?: CaptureOptions): string {
  return currentSdk().captureMessage(message, options);
}

/** Linked to `eventId`, else to the last event of the SDK `register()` started. */
export function captureFeedback(feedback: FeedbackInput): Promise<void> {
  return currentSdk().captureFeedback(feedback);
}

/** Structured logs to `/ingest/log`, through the SDK `register()` started. */
export const logger: Logger = {
  debug: (message, context) => currentSdk().logger.debug(message, context),
  info: (message, context) => currentSdk().logger.info(message, context),
  warn: (message, context) => currentSdk().logger.warn(message, context),
  warning: (message, context) => currentSdk().logger.warning(message, context),
  error: (message, context) => currentSdk().logger.error(message, context),
};

export function lastEventId(): string | undefined {
  return currentSdk().lastEventId();
}

/** Waits up to `timeoutMs` for reports in flight; true when all settled. */
export function flush(timeoutMs?: number): Promise<boolean> {
  return currentSdk().flush(timeoutMs);
}

/** Flushes, removes the process hooks and turns the SDK off. */
export function close(timeoutMs?: number): Promise<boolean> {
  return currentSdk().close(timeoutMs);
}

export function getStats(): Stats {
  return currentSdk().getStats();
}

/** Reports that never reached the server since the process started, by reason (`@tracker/node`). */
export function getDroppedCounts(): DroppedCounts {
  return currentSdk().getDroppedCounts();
}
