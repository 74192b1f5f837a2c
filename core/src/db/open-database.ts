import 'reflect-metadata';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import type { Config } from '../config';
import { DATA_SOURCE_COMMON } from './data-source-options';
import { lockDataDir } from './data-dir-lock';
import { initPgliteDataDir, type PgliteFolderOrigin } from './init-pglite-data-dir';
import { discardPrewarmedCopy, prewarmedPglite } from './pglite-prewarm';
import { PGLITE_START_PARAMS } from './pglite-settings';
import { createPartitionsAhead } from '../partitions/ensure-partitions';

export type DatabaseKind = 'postgres' | 'pglite';

/** An open database: PostgreSQL through `pg`, or embedded PGlite in `dataDir`. */
export interface Database {
  readonly kind: DatabaseKind;
  readonly ds: DataSource;
  /** PGlite only: whether this start found its data folder or made it (and how). */
  readonly folder?: PgliteFolderOrigin;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Run pending migrations after connecting. */
  migrate?: boolean;
  /** Pool size for PostgreSQL (ignored by PGlite, which has one connection). */
  poolSize?: number;
}

/**
 * Opens the database the configuration names. Both kinds use the same entities and the same
 * hand-written migrations, so every code path above this function is shared.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const db = config.databaseUrl
    ? await openPostgres(config.databaseUrl, options.poolSize ?? 10)
    : await openPglite(resolve(config.dataDir));
  if (options.migrate) {
    try {
      await db.ds.runMigrations({ transaction: 'each' });
      // The weeks the first inserts will need (decision 029); the purge keeps them coming.
      await createPartitionsAhead(db.ds);
    } catch (err) {
      await db.close();
      throw err;
    }
  }
  return db;
}

const common = DATA_SOURCE_COMMON;

/**
 * A statement running longer than this is cancelled by PostgreSQL; the client gives up a little
 * later (a server that stopped answering cannot cancel anything), so no caller waits forever
 * on a stuck database. Generous: the worker's batches and the retention purge are far shorter.
 */
const STATEMENT_TIMEOUT_MS = 60_000;

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const ds = new DataSource({
    ...common,
    url,
    poolSize,
    // Waiting for a connection from the pool, or for a new one, fails after this long.
    connectTimeoutMS: 5_000,
    extra: {
      statement_timeout: STATEMENT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS + 5_000,
      // A transaction left open by a stuck client does not hold its locks for ever.
      idle_in_transaction_session_timeout: STATEMENT_TIMEOUT_MS,
      // The kernel notices a server (or a link) that vanished without closing the connection.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    },
  });
  await ds.initialize();
  return { kind: 'postgres', ds, close: () => ds.destroy() };
}

async function openPglite(dataDir: string): Promise<Database> {
  const release = await lockDataDir(dataDir).catch(async (err: NodeJS.ErrnoException) => {
    // The folder is another process's: a copy of the image made ahead for it is not ours to use.
    await discardPrewarmedCopy(dataDir);
    throw storageError(dataDir, err) ?? err;
  });
  // Loaded lazily: production deployments on PostgreSQL never pay for the WASM module.
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  let pglite: InstanceType<typeof PGlite> | undefined;
  try {
    // A first start makes the folder in a child process (its memory dies with it), then opens it
    // like any restart: one way to open, whatever the folder's age.
    const folder = await initPgliteDataDir(dataDir);
    pglite = new PGlite(join(dataDir, 'pgdata'), {
      startParams: [...PGLITE_START_PARAMS],
      ...(await prewarmedPglite()),
    });
    await pglite.waitReady;
    // PGlite has one connection, so the pool gets exactly one client: concurrent work (the
    // worker's batch, an API request) queues for it instead of interleaving inside another's
    // transaction. With a timeout, a query that would wait forever fails loudly instead.
    const ds = new DataSource({ ...common, poolSize: 1, extra: createPgConfig(pglite), connectTimeoutMS: 30_000 });
    await ds.initialize();
    const instance = pglite;
    return {
      kind: 'pglite',
      ds,
      folder,
      close: async () => {
        await ds.destroy();
        await instance.close();
        await release();
      },
    };
  } catch (err) {
    await pglite?.close().catch(() => undefined);
    await release();
    // PGlite's WASM build answers a disk it cannot write with a bare "Aborted()".
    throw storageError(dataDir, err as NodeJS.ErrnoException) ?? probeStorage(dataDir) ?? err;
  }
}

/** A clear message for a data folder Tracker cannot write, from the error's code. */
function storageError(dataDir: string, err: NodeJS.ErrnoException): Error | undefined {
  switch (err?.code) {
    case 'EROFS':
      return new StorageError(
        `The data folder ${dataDir} is on a read-only file system: Tracker must write there.`,
        err,
      );
    case 'ENOSPC':
      return new StorageError(
        `The disk holding the data folder ${dataDir} is full: free some space and start again.`,
        err,
      );
    case 'EACCES':
    case 'EPERM':
      return new StorageError(
        `Tracker may not write the data folder ${dataDir} (${err.code}): check its owner and mode.`,
        err,
      );
    default:
      return undefined;
  }
}

/** Writes and removes a small file in `dataDir` to learn why a start failed; undefined if it can. */
function probeStorage(dataDir: string): Error | undefined {
  const probe = join(dataDir, `.tracker-write-probe-${process.pid}`);
  try {
    writeFileSync(probe, Buffer.alloc(64 * 1024));
    rmSync(probe, { force: true });
    return undefined;
  } catch (err) {
    rmSync(probe, { force: true });
    return storageError(dataDir, err as NodeJS.ErrnoException);
  }
}

/** The data folder cannot be written (read-only, full, no permission): said plainly at start. */
export class StorageError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'StorageError';
  }
}
