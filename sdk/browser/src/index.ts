import { closeClient, initClient, type BaseInitOptions } from '@tracker/sdk-core';
import { installBreadcrumbs } from './breadcrumbs';
import { installGlobalHandlers, removeGlobalHandlers } from './global-handlers';
import { SDK_VERSION } from './version';
import { startVitals } from './vitals';

export {
  captureException,
  captureFeedback,
  captureMessage,
  flush,
  getDroppedCounts,
  getStats,
  lastEventId,
  logger,
} from '@tracker/sdk-core';
export type {
  Breadcrumb,
  BreadcrumbLevel,
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
} from '@tracker/sdk-core';
export { SDK_VERSION };

export interface BrowserOptions extends BaseInitOptions {
  /** Report Core Web Vitals (LCP, INP, CLS, FCP, TTFB) once per page load. Default true. */
  vitals?: boolean;
  /** Share of page views that report vitals, 0–1. Default 1. */
  vitalsSampleRate?: number;
}

const PLATFORM = {
  name: 'tracker.browser',
  version: SDK_VERSION,
  capped: true,
  url: () => location.href,
  // The server parses it into the browser, os and device tags (docs/ingest.md). Sent rather than
  // left to the request header: a proxy or a worker in between may send its own.
  context: () => ({ userAgent: navigator.userAgent }),
};

/**
 * Starts (or reconfigures) the SDK. An invalid or missing DSN leaves it a silent no-op.
 * Calling it again replaces the configuration; listeners are never added twice.
 */
export function init(options: BrowserOptions): void {
  try {
    if (!initClient(options, PLATFORM)) return removeGlobalHandlers();
    installGlobalHandlers();
    if (options.breadcrumbs !== false) installBreadcrumbs();
    const rate = options.vitalsSampleRate;
    startVitals(options.vitals !== false, rate == null ? 1 : rate);
  } catch {
    // never into the host app
  }
}

/** Flushes (at most `timeoutMs`), removes the listeners and turns the SDK off. */
export function close(timeoutMs?: number): Promise<boolean> {
  removeGlobalHandlers();
  return closeClient(timeoutMs);
}
