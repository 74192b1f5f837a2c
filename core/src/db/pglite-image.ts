import { existsSync, readFileSync, rmSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { DATA_SOURCE_COMMON } from './data-source-options';
import { installedPgliteVersion, PGLITE_START_PARAMS } from './pglite-settings';

/**
 * A data folder made at build time (initdb and every migration), shipped in `core/dist/`, so a
 * first start copies it instead of running initdb: initdb cost seconds and, in the process that
 * ran it, half a gigabyte of memory it never gave back (docs/decisions/028).
 * The same path from `src/db` (tests run from source) and from `dist/db` (the built server).
 */
export const PGLITE_IMAGE_FILE = join(__dirname, '..', '..', 'dist', 'pglite-image.tgz');
const PGLITE_IMAGE_META = join(__dirname, '..', '..', 'dist', 'pglite-image.json');

interface ImageMeta {
  pgliteVersion: string;
  migrations: string[];
}

/**
 * The image when there is one made by the installed PGlite (an image of another version could
 * hold a catalogue this PostgreSQL cannot read); undefined otherwise, and the folder is made by
 * initdb instead.
 */
export function findPgliteImage(): string | undefined {
  if (!existsSync(PGLITE_IMAGE_FILE) || !existsSync(PGLITE_IMAGE_META)) return undefined;
  try {
    const meta = JSON.parse(readFileSync(PGLITE_IMAGE_META, 'utf8')) as ImageMeta;
    return meta.pgliteVersion === installedPgliteVersion() ? PGLITE_IMAGE_FILE : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the image: a fresh PGlite folder with every migration applied, dumped by PGlite itself
 * (its `loadDataDir` reads it back). Run by core's build (`scripts/build-pglite-image.mjs`).
 * Migrations the image lacks (a newer build) are applied at start as on any existing folder.
 */
export async function buildPgliteImage(out = PGLITE_IMAGE_FILE, meta = PGLITE_IMAGE_META): Promise<ImageMeta> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  const dir = mkdtempSync(join(tmpdir(), 'tracker-pglite-image-'));
  try {
    const pglite = new PGlite(join(dir, 'pgdata'), { startParams: [...PGLITE_START_PARAMS] });
    await pglite.waitReady;
    const ds = new DataSource({ ...DATA_SOURCE_COMMON, poolSize: 1, extra: createPgConfig(pglite) });
    await ds.initialize();
    const applied = await ds.runMigrations({ transaction: 'each' });
    await ds.destroy();
    // Everything on disk in the data files, so the image does not start with WAL to replay.
    await pglite.query('CHECKPOINT');
    const dump = await pglite.dumpDataDir('gzip');
    await pglite.close();
    writeFileSync(out, Buffer.from(await dump.arrayBuffer()));
    const written: ImageMeta = { pgliteVersion: installedPgliteVersion(), migrations: applied.map((m) => m.name) };
    writeFileSync(meta, `${JSON.stringify(written, null, 2)}\n`);
    return written;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
