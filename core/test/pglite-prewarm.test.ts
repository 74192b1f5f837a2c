import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../src/db';
import { prewarmedPglite, prewarmPglite } from '../src/db/pglite-prewarm';
import { createTempDir } from '../src/testing';

test('prewarmed PGlite: the module compiles ahead, and the database opens on it', async () => {
  assert.equal(await prewarmedPglite(), undefined, 'nothing before it is asked for');
  prewarmPglite();
  const artifacts = await prewarmedPglite();
  assert.ok(artifacts, 'the WebAssembly module and the file-system bundle were prepared');
  assert.equal(artifacts.pgliteWasmModule.constructor.name, 'Module');
  assert.ok(artifacts.fsBundle.size > 1_000_000, `the bundle: ${artifacts.fsBundle.size} bytes`);
  const dir = createTempDir();
  try {
    const db = await openDatabase({ databaseUrl: undefined, dataDir: dir.path }, { migrate: true });
    try {
      const [{ n }] = await db.ds.query('SELECT count(*)::int AS n FROM migrations');
      assert.ok(n > 0);
    } finally {
      await db.close();
    }
  } finally {
    dir.remove();
  }
});
