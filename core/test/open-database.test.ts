import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, DataDirLockedError } from '../src/db';
import { MIGRATIONS } from '../src/migrations';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '../src/testing';

describe('openDatabase on PostgreSQL', () => {
  let pg: TestPostgres;
  before(async () => {
    pg = await createTestPostgres();
  });
  after(async () => {
    await pg.drop();
  });

  test('runs the migrations once and again as a no-op', async () => {
    const db = await openDatabase({ databaseUrl: pg.url, dataDir: 'unused' }, { migrate: true });
    const tables = await db.ds.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'issues'`,
    );
    assert.equal(tables[0].n, 1);
    await db.close();
    const again = await openDatabase({ databaseUrl: pg.url, dataDir: 'unused' }, { migrate: true });
    const runs = await again.ds.query('SELECT count(*)::int AS n FROM migrations');
    assert.equal(runs[0].n, MIGRATIONS.length);
    await again.close();
  });
});

describe('openDatabase embedded (PGlite)', () => {
  let dir: TempDir;
  before(() => {
    dir = createTempDir();
  });
  after(() => dir.remove());

  test('migrates, keeps data across reopen, and refuses a second opener', async () => {
    const db = await openDatabase({ databaseUrl: undefined, dataDir: dir.path }, { migrate: true });
    assert.equal(db.kind, 'pglite');
    await db.ds.query(`INSERT INTO users (email, password_hash) VALUES ('a@example.com', 'x')`);
    await assert.rejects(
      openDatabase({ databaseUrl: undefined, dataDir: dir.path }),
      (err: unknown) => err instanceof DataDirLockedError && /in use by another Tracker process/.test(err.message),
    );
    await db.close();
    const reopened = await openDatabase({ databaseUrl: undefined, dataDir: dir.path }, { migrate: true });
    const rows = await reopened.ds.query('SELECT email FROM users');
    assert.deepEqual(rows, [{ email: 'a@example.com' }]);
    await reopened.close();
  });
});
