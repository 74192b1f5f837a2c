import * as Node from '@tracker/node';
import { describeRequestError, type RequestErrorContext, type RequestErrorRequest } from './on-request-error';
import { resolveServerOptions, type NextServerOptions } from './resolve-server-options';

export {
  captureException,
  captureFeedback,
  captureMessage,
  close,
  flush,
  getStats,
  lastEventId,
  logger,
} from '@tracker/node';
export type { CaptureOptions, FeedbackInput, Level, Logger, LogLevel, Stats, Tags, User } from '@tracker/node';
export type { NextServerOptions, RequestErrorContext, RequestErrorRequest };
export { SDK_VERSION } from '../version';

// Whether register() turned the SDK on in this module instance; onRequestError and register
// share it, so a DSN given as an option (not in TRACKER_DSN) also applies to request errors.
let active = false;

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
    active = true;
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
    if (!active) register();
    if (!active) return;
    Node.captureException(error, describeRequestError(error, request, context));
  } catch {
    // never into the host app
  }
}
