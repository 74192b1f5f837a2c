import 'reflect-metadata';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import type { Config } from '../config';
import { ENTITIES } from '../entities';
import { MIGRATIONS } from '../migrations';
import { lockDataDir } from './data-dir-lock';

export type DatabaseKind = 'postgres' | 'pglite';

/** An open database: PostgreSQL through `pg`, or embedded PGlite in `dataDir`. */
export interface Database {
  readonly kind: DatabaseKind;
  readonly ds: DataSource;
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
    } catch (err) {
      await db.close();
      throw err;
    }
  }
  return db;
}

const common = {
  type: 'postgres' as const,
  entities: ENTITIES,
  migrations: MIGRATIONS,
  migrationsTableName: 'migrations',
  synchronize: false,
  logging: false as const,
};

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const ds = new DataSource({ ...common, url, poolSize, connectTimeoutMS: 10_000 });
  await ds.initialize();
  return { kind: 'postgres', ds, close: () => ds.destroy() };
}

async function openPglite(dataDir: string): Promise<Database> {
  const release = await lockDataDir(dataDir);
  // Loaded lazily: production deployments on PostgreSQL never pay for the WASM module.
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  let pglite: InstanceType<typeof PGlite> | undefined;
  try {
    pglite = new PGlite(`${dataDir}/pgdata`);
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
      close: async () => {
        await ds.destroy();
        await instance.close();
        await release();
      },
    };
  } catch (err) {
    await pglite?.close().catch(() => undefined);
    await release();
    throw err;
  }
}
