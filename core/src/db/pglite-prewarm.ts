import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PGliteOptions } from '@electric-sql/pglite';

type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
// The global exists in Node; the project's TypeScript libraries (no DOM) do not declare it.
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };

/** What PGlite would otherwise read and compile itself when it opens (see `openDatabase`). */
export interface PgliteArtifacts {
  pgliteWasmModule: WasmModule;
  fsBundle: Blob;
}

let warming: Promise<PgliteArtifacts | undefined> | undefined;

/**
 * Starts compiling PGlite's 9 MB WebAssembly module now, on V8's background threads, so that it
 * is ready by the time the database is opened instead of after: `npm start` spends about a second
 * loading the server's JavaScript on the main thread first, and the compile used to wait for it.
 * Call it before importing anything heavy (the embedded server's entry point does). Harmless when
 * the database turns out to be PostgreSQL: nothing else waits for it, and failures are ignored
 * (PGlite then loads its files itself, as before).
 */
export function prewarmPglite(): void {
  if (warming) return;
  try {
    // The reads are synchronous on purpose: the module loading that follows is synchronous too,
    // so an asynchronous read would not even start until it is over.
    const dist = dirname(require.resolve('@electric-sql/pglite'));
    const wasm = readFileSync(join(dist, 'pglite.wasm'));
    const data = readFileSync(join(dist, 'pglite.data'));
    warming = WebAssembly.compile(wasm).then(
      (pgliteWasmModule) => ({ pgliteWasmModule, fsBundle: new Blob([data]) }),
      () => undefined,
    );
  } catch {
    warming = Promise.resolve(undefined);
  }
}

/** The artifacts `prewarmPglite` prepared, or undefined when it was not called or failed. */
export function prewarmedPglite(): Promise<PgliteArtifacts | undefined> {
  return warming ?? Promise.resolve(undefined);
}
