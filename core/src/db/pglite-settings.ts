import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * PGlite's own start parameters (`PGlite.defaultStartParams` in 0.5) plus our memory settings.
 * `startParams` replaces PGlite's list rather than adding to it, so the defaults are repeated
 * here; `pglite-settings.test.ts` fails when PGlite's list changes under us.
 *
 * Why the memory settings: PGlite runs PostgreSQL in the process, in WASM memory that never
 * shrinks, and PostgreSQL writes its whole shared-buffer pool at start. PGlite's default
 * `shared_buffers` (128 MB) was 121 MB of the server's RSS before a single query
 * (docs/benchmarks.md, "Embedded memory"). 16 MB of buffers hold the hot pages of a small
 * team's data (issues, the queue's head, indexes); the rest is read from the data folder
 * through the OS page cache, which the kernel can give back. `maintenance_work_mem` bounds what
 * a migration's CREATE INDEX may grow WASM memory to, for good.
 */
export const PGLITE_DEFAULT_START_PARAMS: readonly string[] = [
  '--single',
  '-F',
  '-O',
  '-j',
  '-c',
  'search_path=public',
  '-c',
  'exit_on_error=false',
  '-c',
  'log_checkpoints=false',
  '-c',
  'max_worker_processes=0',
  '-c',
  'max_parallel_workers=0',
  '-c',
  'max_parallel_workers_per_gather=0',
  '-c',
  'io_method=sync',
  '-c',
  'max_parallel_maintenance_workers=0',
];

export const PGLITE_MEMORY_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '16MB',
  maintenance_work_mem: '16MB',
  work_mem: '4MB',
  temp_buffers: '2MB',
};

export const PGLITE_START_PARAMS: readonly string[] = [
  ...PGLITE_DEFAULT_START_PARAMS,
  ...Object.entries(PGLITE_MEMORY_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
];

/** The installed PGlite's version: a data-folder image is only used by the version that made it. */
export function installedPgliteVersion(): string {
  // The package's exports do not include package.json; its main entry sits in dist/.
  const main = require.resolve('@electric-sql/pglite');
  const pkg = JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
