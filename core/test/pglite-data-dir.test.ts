import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { DataDirLockedError, openDatabase } from '../src/db';
import { initPgliteDataDir, loaderArgs } from '../src/db/init-pglite-data-dir';
import { findPgliteImage } from '../src/db/pglite-image';
import { PGLITE_DEFAULT_START_PARAMS } from '../src/db/pglite-settings';
import { MIGRATIONS } from '../src/migrations';
import { createTempDir, type TempDir } from '../src/testing';

/**
 * Issue 21, embedded memory: a first start makes the data folder in a child process (from the
 * image core's build ships, or with initdb) and then opens it exactly as a restart does.
 * Everything here is a real PGlite on disk and real OS processes.
 */
const FIXTURE = join(__dirname, 'fixtures', 'bin', 'open-data-dir.ts');
const embedded = { databaseUrl: undefined };

/** Another OS process opening `dir` (the fixture), with tsx as this test runs. */
function openInChild(
  dir: string,
  ...flags: string[]
): { proc: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, [...loaderArgs(process.execArgv), FIXTURE, dir, ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, output: () => out, exited };
}

async function waitUntil(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function storesAndKeeps(dir: string, email: string): Promise<void> {
  const db = await openDatabase({ ...embedded, dataDir: dir }, { migrate: true });
  await db.ds.query(`INSERT INTO users (email, password_hash) VALUES ($1, 'x')`, [email]);
  await db.close();
  const again = await openDatabase({ ...embedded, dataDir: dir }, { migrate: true });
  assert.equal(again.folder, 'existing');
  const rows = await again.ds.query('SELECT email FROM users WHERE email = $1', [email]);
  assert.equal(rows.length, 1, 'the row written before the restart');
  await again.close();
}

describe('embedded data folder: first start and restart', () => {
  let dir: TempDir;
  before(() => {
    dir = createTempDir('tracker-pgdata-');
  });
  after(() => dir.remove());

  test('a first start copies the shipped image folder (all migrations applied), a restart opens it', async (t) => {
    if (!findPgliteImage()) return t.skip('no image in core/dist: run `npm run build -w @tracker/core`');
    const path = join(dir.path, 'image');
    const db = await openDatabase({ ...embedded, dataDir: path }, { migrate: true });
    assert.equal(db.folder, 'image');
    const [{ n }] = await db.ds.query('SELECT count(*)::int AS n FROM migrations');
    assert.equal(n, MIGRATIONS.length);
    assert.deepEqual(
      readdirSync(path).filter((f) => f.startsWith('pgdata')),
      ['pgdata'],
      'the scratch folder became pgdata',
    );
    await db.close();
    await storesAndKeeps(path, 'image@example.com');
  });

  test('without an image the child runs initdb; the server migrates and stores', async () => {
    const path = join(dir.path, 'initdb');
    mkdirSync(path);
    assert.equal(await initPgliteDataDir(path, null), 'initdb');
    assert.ok(existsSync(join(path, 'pgdata', 'PG_VERSION')));
    await storesAndKeeps(path, 'initdb@example.com');
  });

  test('PostgreSQL runs with the memory settings and PGlite’s own start parameters', async () => {
    // startParams replaces PGlite's list: ours must still contain all of it.
    assert.deepEqual(PGLITE_DEFAULT_START_PARAMS, PGlite.defaultStartParams);
    const db = await openDatabase({ ...embedded, dataDir: join(dir.path, 'image') });
    const [{ shared_buffers }] = await db.ds.query('SHOW shared_buffers');
    assert.equal(shared_buffers, '16MB');
    const [{ search_path }] = await db.ds.query('SHOW search_path');
    assert.equal(search_path, 'public');
    await db.close();
  });

  test('a second process is refused while the first is still making the folder, and once it has', async () => {
    const path = join(dir.path, 'locked');
    const first = openInChild(path, '--initdb');
    try {
      // The lock is taken before the child that makes the folder is started.
      await waitUntil(
        'the first start to be making the folder',
        () => existsSync(path) && readdirSync(path).some((f) => f.startsWith('pgdata.init-')),
      );
      const second = openInChild(path, '--close');
      assert.equal(await second.exited, 3, second.output());
      assert.match(
        second.output(),
        new RegExp(`refused DataDirLockedError: .*in use by another Tracker process \\(pid ${first.proc.pid}\\)`),
      );
      await waitUntil('the first start to open', () => first.output().includes('opened'));
      assert.match(first.output(), /opened initdb/);
      const third = openInChild(path, '--close');
      assert.equal(await third.exited, 3, third.output());
      assert.match(third.output(), /refused DataDirLockedError/);
      await assert.rejects(openDatabase({ ...embedded, dataDir: path }), (err) => err instanceof DataDirLockedError);
    } finally {
      first.proc.kill('SIGKILL');
      await first.exited;
    }
  });

  test('a first start killed half-way leaves no database-looking folder; the next start makes it', async () => {
    const path = join(dir.path, 'killed');
    const first = openInChild(path, '--initdb');
    await waitUntil(
      'the first start to be making the folder',
      () => existsSync(path) && readdirSync(path).some((f) => f.startsWith('pgdata.init-')),
    );
    first.proc.kill('SIGKILL');
    await first.exited;
    assert.ok(!existsSync(join(path, 'pgdata')), 'no pgdata from a start that died');
    await storesAndKeeps(path, 'after-kill@example.com');
    assert.deepEqual(
      readdirSync(path).filter((f) => f.startsWith('pgdata')),
      ['pgdata'],
      'the dead start’s scratch folder was removed',
    );
  });

  test('a pgdata an older version left without PG_VERSION is kept aside, not opened', async () => {
    const path = join(dir.path, 'incomplete');
    mkdirSync(join(path, 'pgdata'), { recursive: true });
    writeFileSync(join(path, 'pgdata', 'half-written'), 'x');
    await storesAndKeeps(path, 'incomplete@example.com');
    assert.ok(readdirSync(path).some((f) => f.startsWith('pgdata.incomplete-')));
  });

  test('loaderArgs keeps the module loader flags and drops the test runner, inspector and profiler', () => {
    assert.deepEqual(
      loaderArgs([
        '--conditions=@tracker/source',
        '--import',
        'tsx',
        '--test',
        '--test-timeout=180000',
        '--inspect=9229',
        '--heap-prof',
        '-r',
        './preload.cjs',
      ]),
      ['--conditions=@tracker/source', '--import', 'tsx', '-r', './preload.cjs'],
    );
  });
});
