import { captureUnhandled } from '@tracker/sdk-core';

let installed = false;

function onError(event: ErrorEvent): void {
  // `error` is null for "Script error." from a cross-origin script without CORS: the message is
  // all the browser tells us, and it is still worth counting.
  captureUnhandled(event.error != null ? event.error : event.message);
}

function onRejection(event: PromiseRejectionEvent): void {
  captureUnhandled(event.reason);
}

/** Idempotent: `init` may run many times, the listeners are added once. */
export function installGlobalHandlers(): void {
  if (installed) return;
  installed = true;
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
}

export function removeGlobalHandlers(): void {
  installed = false;
  removeEventListener('error', onError);
  removeEventListener('unhandledrejection', onRejection);
}
