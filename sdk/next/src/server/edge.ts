// `@tracker/next/server` as Next's edge runtime resolves it (the `edge-light` export
// condition). The Node SDK cannot run there (no process hooks, no `process.on`), and bundling it
// into the edge compilation of `instrumentation.ts` makes Next warn about every Node API it
// uses. So the edge build has the same exports and does nothing: `register()` does nothing in
// the edge runtime by construction, not only by the runtime check of the Node build.
import type { CaptureOptions, DroppedCounts, FeedbackInput, Logger, Stats } from '@tracker/node';
import type { RequestErrorContext, RequestErrorRequest } from './on-request-error';
import type { NextServerOptions } from './resolve-server-options';

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

const done = (): Promise<void> => Promise.resolve();

export function register(_options?: NextServerOptions): void {}
export function onRequestError(_error: unknown, _request: RequestErrorRequest, _context: RequestErrorContext): void {}
/** Returns '' (no event is sent from the edge runtime). */
export function captureException(_value: unknown, _options?: CaptureOptions): string {
  return '';
}
export function captureMessage(_message: string, _options?: CaptureOptions): string {
  return '';
}
export function captureFeedback(_feedback: FeedbackInput): Promise<void> {
  return done();
}
export const logger: Logger = { debug: done, info: done, warn: done, warning: done, error: done };
export function lastEventId(): string | undefined {
  return undefined;
}
export function flush(_timeoutMs?: number): Promise<boolean> {
  return Promise.resolve(true);
}
export function close(_timeoutMs?: number): Promise<boolean> {
  return Promise.resolve(true);
}
export function getStats(): Stats {
  return { sent: 0, failed: 0, retried: 0, dropped: 0, internalErrors: 0 };
}
/** All zero: nothing is sent, so nothing is dropped, in the edge runtime. */
export function getDroppedCounts(): DroppedCounts {
  return { duplicate: 0, rate_cap: 0, rate_limited: 0, network: 0, too_large: 0, rejected: 0, unserializable: 0 };
}
