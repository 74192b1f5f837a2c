import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installedPgliteVersion, PGLITE_START_PARAMS } from './pglite-settings';

/**
 * A PGlite data folder made at build time (initdb and every migration, then a clean shutdown),
 * shipped in `core/dist/`, so that a first start copies files instead of running initdb: initdb
 * cost seconds of CPU and, in the process that ran it, over 500 MB it never gave back
 * (docs/decisions/028). A plain folder rather than PGlite's own tarball (`loadDataDir`): loading
 * the tarball also went through PGlite in the process and grew its WASM memory by 145 MB for
 * good, and a copy needs no tar reader of ours.
 * The same path from `src/db` (tests run from source) and from `dist/db` (the built server).
 */
export const PGLITE_IMAGE_DIR = join(__dirname, '..', '..', 'dist', 'pglite-image');
const PGLITE_IMAGE_META = join(__dirname, '..', '..', 'dist', 'pglite-image.json');

interface ImageMeta {
  pgliteVersion: string;
  migrations: string[];
}

/**
 * The image folder when there is one made by the installed PGlite (another version could have
 * written a catalogue this PostgreSQL cannot read); undefined otherwise: initdb then.
 */
export function findPgliteImage(): string | undefined {
  if (!existsSync(join(PGLITE_IMAGE_DIR, 'PG_VERSION')) || !existsSync(PGLITE_IMAGE_META)) return undefined;
  try {
    const meta = JSON.parse(readFileSync(PGLITE_IMAGE_META, 'utf8')) as ImageMeta;
    return meta.pgliteVersion === installedPgliteVersion() ? PGLITE_IMAGE_DIR : undefined;
  } catch {
    return undefined;
  }
}

/** Copies the image to `target` (which must not exist): a cold copy of a cleanly shut-down folder. */
export function copyPgliteImage(image: string, target: string): void {
  cpSync(image, target, { recursive: true, errorOnExist: true, force: false });
}

/**
 * Writes the image: a fresh PGlite folder with every migration applied. Run by core's build
 * (`scripts/build-pglite-image.mjs`). Migrations the image lacks (a newer build, or sources run
 * with an older dist) are applied at start as on any existing folder.
 */
export async function buildPgliteImage(out = PGLITE_IMAGE_DIR, meta = PGLITE_IMAGE_META): Promise<ImageMeta> {
  // Loaded here, not at the top: the server's entry point reads this module before anything
  // heavy (pglite-prewarm.ts), to start copying the image while the rest loads.
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  const { DataSource } = await import('typeorm');
  const { DATA_SOURCE_COMMON } = require('./data-source-options') as typeof import('./data-source-options');
  const scratch = mkdtempSync(join(tmpdir(), 'tracker-pglite-image-'));
  try {
    const folder = join(scratch, 'pgdata');
    const pglite = new PGlite(folder, { startParams: [...PGLITE_START_PARAMS] });
    await pglite.waitReady;
    const ds = new DataSource({ ...DATA_SOURCE_COMMON, poolSize: 1, extra: createPgConfig(pglite) });
    await ds.initialize();
    const applied = await ds.runMigrations({ transaction: 'each' });
    await ds.destroy();
    await pglite.query('CHECKPOINT');
    // A clean shutdown: the copy starts without WAL to replay.
    await pglite.close();
    rmSync(out, { recursive: true, force: true });
    cpSync(folder, `${out}.partial`, { recursive: true });
    // PostgreSQL wrote some files 0600: the user a server runs as may not be the one who built it
    // (a container's `node` user, a build run as root). The copies get the modes initdb would
    // give under the usual umask.
    for (const entry of readdirSync(`${out}.partial`, { recursive: true, withFileTypes: true })) {
      chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
    }
    renameSync(`${out}.partial`, out);
    const written: ImageMeta = { pgliteVersion: installedPgliteVersion(), migrations: applied.map((m) => m.name) };
    writeFileSync(meta, `${JSON.stringify(written, null, 2)}\n`);
    return written;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
