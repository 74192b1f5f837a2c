/**
 * Session authentication, on both databases: one statement reads the session, its user and the
 * organizations requiring two-factor of a user who has none (the guard's input), and each
 * refusal says why — unknown, signed out, expired. API tokens keep their own path.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Logger } from 'typeorm';
import { loadConfig } from '../src/config';
import { authenticateBearer, signUp } from '../src/accounts';
import { openDatabase, type Database } from '../src/db';
import { createTempDir, createTestPostgres, type TestPostgres } from '../src/testing';

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`session authentication (${kind})`, () => {
    let pg: TestPostgres | undefined;
    const dir = createTempDir();
    let db: Database;
    let account: Awaited<ReturnType<typeof signUp>>;

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      db = await openDatabase(loadConfig({ TRACKER_DATA_DIR: dir.path, ...(pg ? { DATABASE_URL: pg.url } : {}) }), {
        migrate: true,
      });
      account = await signUp(
        db.ds,
        { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'A' },
        'free',
      );
    });
    after(async () => {
      await db?.close();
      await pg?.drop();
      dir.remove();
    });

    /** Statements sent while `run` runs, counted at TypeORM's logger (every query passes it). */
    async function counted<T>(run: () => Promise<T>): Promise<{ result: T; statements: number }> {
      const ds = db.ds as unknown as { logger: Logger };
      const original = ds.logger;
      let statements = 0;
      ds.logger = new Proxy(original, {
        get: (target, prop, receiver) =>
          prop === 'logQuery'
            ? (...args: Parameters<Logger['logQuery']>) => {
                statements += 1;
                return target.logQuery(...args);
              }
            : Reflect.get(target, prop, receiver),
      });
      try {
        return { result: await run(), statements };
      } finally {
        ds.logger = original;
      }
    }

    test('a live session: its user and no pending two-factor, in one statement', async () => {
      const { result, statements } = await counted(() => authenticateBearer(db.ds, account.token));
      assert.equal(statements, 1);
      assert.ok(result.principal);
      assert.equal(result.principal.user.id, account.user.id);
      assert.equal(result.principal.user.email, account.user.email);
      assert.equal(result.principal.sessionId, account.sessionId);
      assert.equal(result.principal.apiTokenId, null);
      assert.deepEqual(result.principal.twoFactorPending, []);
    });

    test('an organization requiring two-factor is pending for a user without it, not for one with it', async () => {
      await db.ds.query('UPDATE organizations SET require_two_factor = true WHERE id = $1', [account.organization.id]);
      const pending = await authenticateBearer(db.ds, account.token);
      assert.deepEqual(pending.principal?.twoFactorPending, [account.organization.id]);
      await db.ds.query(`UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXP' WHERE id = $1`, [account.user.id]);
      const enrolled = await authenticateBearer(db.ds, account.token);
      assert.deepEqual(enrolled.principal?.twoFactorPending, []);
      assert.equal(enrolled.principal?.user.totpSecret, 'JBSWY3DPEHPK3PXP');
    });

    test('unknown, expired and signed-out sessions are refused, each saying why', async () => {
      assert.deepEqual(await authenticateBearer(db.ds, 'ets_nope'), {
        principal: null,
        problem: 'Unknown session token: sign in again',
      });
      await db.ds.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [
        account.sessionId,
      ]);
      assert.deepEqual(await authenticateBearer(db.ds, account.token), {
        principal: null,
        problem: 'This session has expired: sign in again',
      });
      await db.ds.query('UPDATE sessions SET revoked_at = now() WHERE id = $1', [account.sessionId]);
      assert.deepEqual(await authenticateBearer(db.ds, account.token), {
        principal: null,
        problem: 'This session was signed out: sign in again',
      });
    });
  });
}
