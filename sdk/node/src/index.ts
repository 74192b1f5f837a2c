import {
  captureException as captureAny,
  captureMessage as captureText,
  closeClient,
  initClient,
  type BaseInitOptions,
} from '@tracker/sdk-core';
import { installNodeBreadcrumbs } from './http-breadcrumbs';
import { prepareEvent, type NodeCaptureOptions, type RequestData } from './prepare-event';
import { installProcessHandlers, removeProcessHandlers } from './process-handlers';
import { runtimeContext } from './runtime-context';
import { SDK_VERSION } from './version';

export { captureFeedback, flush, getDroppedCounts, getStats, lastEventId, logger } from '@tracker/sdk-core';
export type {
  Breadcrumb,
  BreadcrumbLevel,
  DroppedCounts,
  DropReason,
  FeedbackInput,
  Level,
  Logger,
  LogLevel,
  Stats,
  Tags,
  User,
} from '@tracker/sdk-core';
export { SDK_VERSION };
export type { NodeCaptureOptions as CaptureOptions, RequestData };
export { CONTEXT_LINES_TIMEOUT_MS, MAX_SOURCE_FILE_BYTES } from './context-lines';
export { checkIn, withMonitor, type CheckInInput, type MonitorConfig } from './monitors';

export interface NodeOptions extends BaseInitOptions {
  /**
   * Default true: on an uncaught exception, capture it (level `fatal`), wait at most 2 s for
   * delivery, then exit with code 1 as Node would (only when no other `uncaughtException`
   * listener exists: then, as in Node, the app decides). False: capture only.
   */
  exitOnFatal?: boolean;
}

const PLATFORM = { name: 'tracker.node', version: SDK_VERSION, context: runtimeContext, prepare: prepareEvent };

/**
 * Any thrown value; returns the event id (for a duplicate, the id of the event already sent).
 * Sends its `cause` chain, the source lines of its in-app frames, and `options.request`.
 */
export function captureException(value: unknown, options?: NodeCaptureOptions): string {
  return captureAny(value, options);
}

export function captureMessage(message: string, options?: NodeCaptureOptions): string {
  return captureText(message, options);
}

/**
 * Starts (or reconfigures) the SDK. An invalid or missing DSN leaves it a silent no-op and
 * removes the process hooks, so Node's own crash behaviour is untouched.
 */
export function init(options: NodeOptions): void {
  try {
    if (initClient(options, PLATFORM)) {
      installProcessHandlers(options);
      if (options.breadcrumbs !== false) installNodeBreadcrumbs();
    } else removeProcessHandlers();
  } catch {
    // never into the host app
  }
}

/** Flushes (at most `timeoutMs`), removes the process hooks and turns the SDK off. */
export function close(timeoutMs?: number): Promise<boolean> {
  removeProcessHandlers();
  return closeClient(timeoutMs);
}
