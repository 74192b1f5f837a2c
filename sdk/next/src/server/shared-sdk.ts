import * as Node from '@tracker/node';

/** The Node SDK's functions the wrapper forwards to. */
export type Sdk = Pick<
  typeof Node,
  | 'captureException'
  | 'captureMessage'
  | 'captureFeedback'
  | 'logger'
  | 'lastEventId'
  | 'flush'
  | 'close'
  | 'getStats'
  | 'getDroppedCounts'
>;

// Next bundles a package into each server entry it builds (instrumentation.ts, every route,
// page and action), and those bundles can each hold their own copy of @tracker/node: a route's
// copy is not the one register() started, and its captureMessage would send nothing (the e2e
// test saw exactly that). So register() publishes the SDK it started on globalThis, and every
// copy of this module sends through that one: one client, one set of process hooks, one
// de-duplication window per process. `Symbol.for` is shared across bundles and realms.
const KEY = Symbol.for('@tracker/next/server');

export function publishSdk(sdk: Sdk): void {
  (globalThis as Record<symbol, unknown>)[KEY] = sdk;
}

export function findPublishedSdk(): Sdk | undefined {
  return (globalThis as Record<symbol, Sdk | undefined>)[KEY];
}

/** The SDK register() started in any bundle, else this bundle's own copy (off until init). */
export function currentSdk(): Sdk {
  return findPublishedSdk() ?? Node;
}
