import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isTransientError, openDatabase, type Database } from '@tracker/core';
import { createTestPostgres, type TestPostgres } from '@tracker/core/testing';
import { Client } from 'pg';

/** Real errors from a real server and a real socket, classified as the worker will see them. */
describe('isTransientError', () => {
  let pg: TestPostgres;
  let db: Database;
  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' });
    await db.ds.query('CREATE TABLE t (id int PRIMARY KEY, v text)');
  });
  after(async () => {
    await db.close();
    await pg.drop();
  });

  const failure = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (err) {
      return err;
    }
    throw new Error('expected a failure');
  };

  test('data errors are not transient: a NUL, a duplicate key, a bad cast', async () => {
    for (const sql of [
      [`INSERT INTO t VALUES (1, $1)`, ['a\u0000b']],
      [`SELECT '{"a":"\\u0000"}'::jsonb->>'a'`, []],
      [`INSERT INTO t VALUES (2, 'x'), (2, 'y')`, []],
      [`SELECT 'x'::int`, []],
    ] as const) {
      const err = await failure(() => db.ds.query(sql[0], [...sql[1]]));
      assert.equal(isTransientError(err), false, `${sql[0]}: ${(err as Error).message}`);
    }
  });

  test('a serialization failure, a cancelled statement and a refused connection are transient', async () => {
    const a = new Client({ connectionString: pg.url });
    const b = new Client({ connectionString: pg.url });
    await a.connect();
    await b.connect();
    try {
      await a.query(`INSERT INTO t VALUES (10, 'x'), (11, 'y')`);
      await a.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      await b.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      await a.query(`SELECT sum(id) FROM t`);
      await b.query(`SELECT sum(id) FROM t`);
      await a.query(`UPDATE t SET v = 'a' WHERE id = 10`);
      await b.query(`UPDATE t SET v = 'b' WHERE id = 11`);
      await a.query('COMMIT');
      const serialization = await failure(() => b.query('COMMIT'));
      assert.equal((serialization as { code?: string }).code, '40001');
      assert.ok(isTransientError(serialization));

      const cancelled = await failure(() => db.ds.query(`SET statement_timeout = 50; SELECT pg_sleep(1)`));
      assert.ok(isTransientError(cancelled), (cancelled as Error).message);
    } finally {
      await a.end();
      await b.end().catch(() => undefined);
    }
    const refused = await failure(async () => {
      const c = new Client({ host: '127.0.0.1', port: 1, user: 'postgres', connectionTimeoutMillis: 2_000 });
      await c.connect();
    });
    assert.ok(isTransientError(refused), (refused as Error).message);
  });
});
