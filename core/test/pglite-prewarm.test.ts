import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../src/db';
import { lockDataDir } from '../src/db/data-dir-lock';
import { loaderArgs } from '../src/db/init-pglite-data-dir';
import { findPgliteImage } from '../src/db/pglite-image';
import { PREWARM_COPY_PREFIX, prewarmedPglite, prewarmPglite } from '../src/db/pglite-prewarm';
import { createTempDir } from '../src/testing';

const ownCopy = (dir: string) => join(dir, `${PREWARM_COPY_PREFIX}${process.pid}`);

async function until(what: string, check: () => boolean): Promise<void> {
  for (const started = Date.now(); !check(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() - started > 60_000) throw new Error(`timed out waiting for ${what}`);
  }
}

// One process-wide prewarm (the entry point calls it once), so the cases run in this order.
test('prewarmed PGlite: the module compiles and the image is copied ahead; the database opens on both', async (t) => {
  if (!findPgliteImage()) return t.skip('no image in core/dist: run `npm run build -w @tracker/core`');
  assert.equal(await prewarmedPglite(), undefined, 'nothing before it is asked for');
  const dir = createTempDir();
  const other = createTempDir();
  try {
    prewarmPglite({ dataDir: dir.path });
    const artifacts = await prewarmedPglite();
    assert.ok(artifacts, 'the WebAssembly module and the file-system bundle were prepared');
    assert.equal(artifacts.pgliteWasmModule.constructor.name, 'Module');
    assert.ok(artifacts.fsBundle.size > 1_000_000, `the bundle: ${artifacts.fsBundle.size} bytes`);
    assert.equal(await prewarmedPglite(), undefined, 'taken once: not held after');
    // The copy is made by a worker thread before anything opens the folder.
    await until('the copy made ahead', () => existsSync(join(ownCopy(dir.path), 'PG_VERSION')));
    // Another folder's open does not take it.
    const elsewhere = await openDatabase({ databaseUrl: undefined, dataDir: other.path }, { migrate: true });
    await elsewhere.close();
    assert.ok(existsSync(ownCopy(dir.path)), 'still there for its own folder');
    const db = await openDatabase({ databaseUrl: undefined, dataDir: dir.path }, { migrate: true });
    try {
      assert.equal(db.folder, 'image');
      const [{ n }] = await db.ds.query('SELECT count(*)::int AS n FROM migrations');
      assert.ok(n > 0);
    } finally {
      await db.close();
    }
    assert.deepEqual(
      readdirSync(dir.path).filter((f) => f.startsWith('pgdata')),
      ['pgdata'],
      'the copy became the database; nothing left beside it',
    );
  } finally {
    dir.remove();
    other.remove();
  }
});

test('a copy made ahead for a folder another process holds is deleted, not used', async (t) => {
  if (!findPgliteImage()) return t.skip('no image in core/dist');
  const dir = createTempDir();
  try {
    // Another process's lock on a folder with no database yet (its own first start under way).
    const release = await lockDataDir(dir.path);
    try {
      const out = execFileSync(
        process.execPath,
        [...loaderArgs(process.execArgv), join(__dirname, 'fixtures', 'prewarm-child.ts'), dir.path],
        { encoding: 'utf8' },
      );
      assert.deepEqual(JSON.parse(out), { copyMade: true, refused: 'DataDirLockedError', copyLeft: false });
    } finally {
      await release();
    }
  } finally {
    dir.remove();
  }
});
