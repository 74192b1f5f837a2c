import { spawn } from 'node:child_process';
import { existsSync, openSync, readSync, closeSync, readdirSync, renameSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as tar from 'tar';
import { lockDataDir, openDatabase, type Config } from '@tracker/core';

/**
 * `npm run tracker -- backup <file>` and `restore <file> [--force]` (issue 35, docs/operations.md).
 *
 * PostgreSQL: `pg_dump`'s custom format, restored with `pg_restore` into an emptied `public`
 * schema, so the file is one PostgreSQL already knows how to read, inspect (`pg_restore -l`) and
 * restore table by table. Embedded: a gzip tar of the data folder, taken while no process holds
 * it (PGlite has one process per folder, so a running server must stop first; a file copy of a
 * closed folder is consistent). Either way the database holds the source maps, the settings,
 * the alert targets' secrets and the hashes of keys and tokens; the embedded folder also holds
 * the session secret when `TRACKER_SESSION_SECRET` is not set. A restore then runs the
 * migrations, so a backup of an earlier release comes back upgraded.
 */

/** What a restore found in the target, to refuse a non-empty one unless forced. */
export class BackupError extends Error {
  override readonly name = 'BackupError';
}

const PG_DUMP_MAGIC = 'PGDMP';
const GZIP_MAGIC = [0x1f, 0x8b];

export async function backup(config: Config, file: string): Promise<string> {
  const target = resolve(file);
  if (existsSync(target)) throw new BackupError(`${target} exists: choose a new file name`);
  if (config.databaseUrl) {
    await run('pg_dump', ['--format=custom', '--no-owner', '--no-acl', `--file=${target}`, config.databaseUrl]);
    return `backed up the PostgreSQL database to ${target} (pg_dump custom format)`;
  }
  const dataDir = resolve(config.dataDir);
  if (!existsSync(join(dataDir, 'pgdata'))) throw new BackupError(`${dataDir} holds no Tracker database`);
  // Held for the whole copy: a server starting meanwhile waits for us, not the reverse.
  const release = await lockDataDir(dataDir).catch((err: Error) => {
    throw new BackupError(`${err.message}\nStop Tracker, run the backup, then start it again.`);
  });
  try {
    await tar.c(
      { gzip: true, file: target, cwd: dataDir, portable: true, filter: (path) => keep(path) },
      entries(dataDir),
    );
  } finally {
    await release();
  }
  return `backed up the data folder ${dataDir} to ${target} (gzip tar; keep it private: it holds every secret)`;
}

export async function restore(config: Config, file: string, force: boolean): Promise<string> {
  const source = resolve(file);
  if (!existsSync(source)) throw new BackupError(`no file ${source}`);
  const kind = backupKind(source);
  if (config.databaseUrl) {
    if (kind !== 'postgres') throw new BackupError(`${source} is not a PostgreSQL backup (pg_dump custom format)`);
    await restorePostgres(config, source, force);
  } else {
    if (kind !== 'embedded')
      throw new BackupError(`${source} is not an embedded backup (a gzip tar of the data folder)`);
    await restoreEmbedded(resolve(config.dataDir), source, force);
  }
  // A backup of an earlier release comes back upgraded.
  const db = await openDatabase(config, { migrate: true, poolSize: 2 });
  await db.close();
  return `restored ${source}; migrations are up to date`;
}

async function restorePostgres(config: Config, source: string, force: boolean): Promise<void> {
  const db = await openDatabase(config, { poolSize: 1 });
  try {
    const [{ present }] = await db.ds.query(`SELECT to_regclass('public.organizations') IS NOT NULL AS present`);
    const used = present && (await db.ds.query('SELECT 1 FROM organizations LIMIT 1')).length > 0;
    if (used && !force) throw new BackupError('the database holds organizations: restore with --force to replace them');
    // Objects of a newer release would otherwise be left beside the restored ones.
    await db.ds.query('DROP SCHEMA public CASCADE');
    await db.ds.query('CREATE SCHEMA public');
  } finally {
    await db.close();
  }
  await run('pg_restore', [
    '--no-owner',
    '--no-acl',
    '--single-transaction',
    '--exit-on-error',
    `--dbname=${config.databaseUrl}`,
    source,
  ]);
}

async function restoreEmbedded(dataDir: string, source: string, force: boolean): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const release = await lockDataDir(dataDir).catch((err: Error) => {
    throw new BackupError(`${err.message}\nStop Tracker, run the restore, then start it again.`);
  });
  try {
    const present = readdirSync(dataDir).filter(keep);
    if (present.length > 0) {
      if (!force)
        throw new BackupError(`${dataDir} is not empty: restore with --force (it is moved aside, not deleted)`);
      const aside = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      mkdirSync(aside);
      for (const name of present) renameSync(join(dataDir, name), join(aside, name));
    }
    // node-tar refuses absolute paths and `..` in entry names: a hostile file cannot write outside.
    await tar.x({ file: source, cwd: dataDir, strict: true });
    if (!existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))) {
      throw new BackupError(`${source} holds no Tracker data folder (no pgdata/PG_VERSION)`);
    }
  } finally {
    await release();
  }
}

/** The lock file and a start's leftovers (`pgdata.init-*`, `pgdata.copy-*`, probes) are not data. */
function keep(path: string): boolean {
  const name = path.replace(/^\.\//, '').split('/')[0];
  return (
    name !== '' &&
    name !== '.' &&
    name !== 'tracker.lock' &&
    // A run's control socket and its token (decision 052): not data, and a socket is no file to archive.
    name !== 'control' &&
    !name.startsWith('pgdata.') &&
    !name.startsWith('.tracker')
  );
}

function entries(dataDir: string): string[] {
  return readdirSync(dataDir).filter(keep);
}

function backupKind(file: string): 'postgres' | 'embedded' | 'unknown' {
  const head = Buffer.alloc(5);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 5, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') === PG_DUMP_MAGIC) return 'postgres';
  if (head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) return 'embedded';
  return 'unknown';
}

/** Runs a PostgreSQL client tool; its stderr becomes the error. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('error', (e: NodeJS.ErrnoException) =>
      fail(
        new BackupError(
          e.code === 'ENOENT' ? `${command} is not installed: apt-get install postgresql-client` : e.message,
        ),
      ),
    );
    child.on('close', (code) =>
      code === 0 ? done() : fail(new BackupError(`${command} failed (${code}): ${err.trim().slice(-2_000)}`)),
    );
  });
}
