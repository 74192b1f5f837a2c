import { inspect } from 'node:util';
import { captureUnhandled, flush } from '@tracker/sdk-core';

/** Bounded wait for the fatal report before exiting: long enough for one round trip and a retry. */
export const FATAL_FLUSH_TIMEOUT_MS = 2_000;

let installed = false;
let exitOnFatal = true;
let exiting = false;

/** Node's mode from `--unhandled-rejections=…` (flags or NODE_OPTIONS); `throw` is the default. */
function rejectionMode(): string {
  const flags = process.execArgv.join(' ') + ' ' + (process.env.NODE_OPTIONS || '');
  const match = /--unhandled-rejections[= ]([\w-]+)/.exec(flags);
  return match ? match[1] : 'throw';
}

/** What Node would have done: print the error, exit 1; first giving the report a bounded chance. */
function exitAfterFlush(error: unknown): void {
  if (exiting) return;
  exiting = true;
  process.stderr.write(inspect(error) + '\n');
  const exit = () => process.exit(1);
  flush(FATAL_FLUSH_TIMEOUT_MS).then(exit, exit);
}

function onUncaughtException(error: unknown): void {
  captureUnhandled(error, { level: 'fatal' });
  // Node exits only when nobody listens; if the app added its own listener it chose to handle
  // the error, and the SDK must not overrule it (Sentry's onFatalError makes the same call).
  if (exitOnFatal && process.listenerCount('uncaughtException') == 1) exitAfterFlush(error);
}

function onUnhandledRejection(reason: unknown): void {
  captureUnhandled(reason);
  // Adding a listener switches off Node's own crash on unhandled rejections (default mode
  // `throw`). Installing the SDK should not change whether an app dies, so when ours is the
  // only listener and the mode is `throw`, exit as Node would have. Other listeners, or a
  // `warn`/`none` mode, mean the app chose to live on; `strict` already raised an
  // uncaughtException, which exits through the handler above.
  if (exitOnFatal && rejectionMode() == 'throw' && process.listenerCount('unhandledRejection') == 1) {
    exitAfterFlush(reason);
  }
}

/** Idempotent: a second `init` only updates `exitOnFatal`, never adds a listener. */
export function installProcessHandlers(options: { exitOnFatal?: boolean }): void {
  exitOnFatal = options.exitOnFatal !== false;
  if (installed) return;
  installed = true;
  process.on('uncaughtException', onUncaughtException);
  process.on('unhandledRejection', onUnhandledRejection);
}

export function removeProcessHandlers(): void {
  if (!installed) return;
  installed = false;
  process.off('uncaughtException', onUncaughtException);
  process.off('unhandledRejection', onUnhandledRejection);
}
