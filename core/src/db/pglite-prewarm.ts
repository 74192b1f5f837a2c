import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGliteOptions } from '@electric-sql/pglite';
import { findPgliteImage } from './pglite-image';

/** Where the embedded server keeps its data without TRACKER_DATA_DIR (relative to the working directory). */
export const DEFAULT_DATA_DIR = './.tracker';

/** A copy of the image made ahead, in the data folder, named after the process that made it. */
export const PREWARM_COPY_PREFIX = 'pgdata.copy-';

type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
// The global exists in Node; the project's TypeScript libraries (no DOM) do not declare it.
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };

/** What PGlite would otherwise read and compile itself when it opens (see `openDatabase`). */
export interface PgliteArtifacts {
  pgliteWasmModule: WasmModule;
  fsBundle: Blob;
}

let warming: Promise<PgliteArtifacts | undefined> | undefined;
let copying: { dataDir: string; image: string | undefined; folder: Promise<string | undefined> } | undefined;

/**
 * Starts compiling PGlite's 9 MB WebAssembly module now, on V8's background threads, so that it
 * is ready by the time the database is opened instead of after: `npm start` spends about a second
 * loading the server's JavaScript on the main thread first, and the compile used to wait for it.
 * With `dataDir` on a first start (no database there yet), the shipped image is also copied into
 * the folder meanwhile, by a worker thread (~0.3–0.5 s of file copying off the main thread);
 * `initPgliteDataDir` takes that copy once it holds the folder's lock.
 * Call it before importing anything heavy (the embedded server's entry point does). Harmless when
 * the database turns out to be PostgreSQL: nothing waits for it, and failures are ignored (PGlite
 * then loads its files itself, and the image is copied under the lock, as before).
 */
export function prewarmPglite(options: { dataDir?: string } = {}): void {
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
  if (options.dataDir) {
    const dataDir = resolve(options.dataDir);
    const image = safely(findPgliteImage);
    copying = { dataDir, image, folder: image ? copyImageAhead(dataDir, image) : Promise.resolve(undefined) };
  }
}

/** The copy is made in a worker thread: the main thread is busy loading modules meanwhile. */
function copyImageAhead(dataDir: string, image: string): Promise<string | undefined> {
  try {
    if (existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))) return Promise.resolve(undefined);
    const target = join(dataDir, `${PREWARM_COPY_PREFIX}${process.pid}`);
    const worker = new Worker(
      `const { cpSync, mkdirSync, rmSync } = require('node:fs');
       const { parentPort, workerData: w } = require('node:worker_threads');
       try {
         mkdirSync(w.dataDir, { recursive: true });
         rmSync(w.target, { recursive: true, force: true });
         cpSync(w.image, w.target, { recursive: true, errorOnExist: true, force: false });
         parentPort.postMessage(true);
       } catch {
         rmSync(w.target, { recursive: true, force: true });
         parentPort.postMessage(false);
       }`,
      { eval: true, workerData: { image, target, dataDir } },
    );
    return new Promise((done) => {
      worker.once('message', (ok: boolean) => done(ok ? target : undefined));
      worker.once('error', () => done(undefined));
      worker.once('exit', () => done(undefined));
    });
  } catch {
    return Promise.resolve(undefined);
  }
}

/**
 * The complete copy of `image` that `prewarmPglite` made in `dataDir`, or undefined (none, or of
 * another image: then deleted). Only for the holder of the folder's lock, who renames it into place.
 */
export async function takePrewarmedCopy(dataDir: string, image: string | null): Promise<string | undefined> {
  if (!copying || copying.dataDir !== resolve(dataDir)) return undefined;
  const made = copying;
  copying = undefined;
  const folder = await made.folder;
  if (folder && made.image === image && existsSync(join(folder, 'PG_VERSION'))) return folder;
  if (folder) rmSync(folder, { recursive: true, force: true });
  return undefined;
}

/** Deletes a copy made ahead that will not be used (the folder is another process's, or has a database). */
export async function discardPrewarmedCopy(dataDir: string): Promise<void> {
  await takePrewarmedCopy(dataDir, null);
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * The artifacts `prewarmPglite` prepared, or undefined when it was not called, failed, or they
 * were taken already: one PGlite uses them, and holding the 6 MB bundle after that is waste.
 */
export function prewarmedPglite(): Promise<PgliteArtifacts | undefined> {
  const prepared = warming ?? Promise.resolve(undefined);
  if (warming) warming = Promise.resolve(undefined);
  return prepared;
}
