import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { openDatabase, signUp, type Database } from '@tracker/core';
import { startPrivatePostgres, type PrivatePostgres } from '@tracker/core/testing';
import { PlanLimits } from '../src/quota/plan-limits';

/*
 * Issue 28 §6: the quota gate's plan lookup is on the ingest request path too. With PostgreSQL
 * stopped (a private cluster), the limits read before stay in use, an organization never read
 * is admitted uncounted (fail open) instead of failing the request, and a failed lookup is not
 * repeated for every request.
 */
describe("plan limits while PostgreSQL is stopped (the gate's lookup on the request path)", () => {
  let pg: PrivatePostgres;
  let db: Database;
  before(async () => {
    pg = await startPrivatePostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
  });
  after(async () => {
    await db?.close();
    await pg?.close();
  });

  test('stale limits served, an organization never read fails open, one lookup per second at most, read again once back', async () => {
    const signUpOrg = async () =>
      (
        await signUp(
          db.ds,
          { email: `limits-${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'L' },
          'free',
        )
      ).organization;
    const known = await signUpOrg();
    const unread = await signUpOrg();
    let now = Date.parse('2031-03-15T12:00:00.000Z');
    const limits = new PlanLimits(db.ds, () => now, 5_000, {});
    assert.deepEqual(await limits.of(known.id), { events: 5_000, logs: 50_000 });

    await pg.stop();
    try {
      now += 60_000;
      assert.deepEqual(limits.of(known.id), { events: 5_000, logs: 50_000 }, 'the limits read before');
      assert.equal(await limits.of(unread.id), null, 'never read: admitted uncounted, not an error');
      // Within the second after a failure, no lookup is started: answers are synchronous.
      for (let i = 0; i < 100; i++) {
        assert.equal(limits.of(unread.id) instanceof Promise, false, 'no lookup per request while failing');
      }
    } finally {
      await pg.start();
    }
    now += 1_001;
    await limits.of(unread.id);
    const deadline = Date.now() + 10_000;
    let read = limits.of(unread.id);
    while ((read === null || read instanceof Promise) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      now += 1_001;
      read = await limits.of(unread.id);
    }
    assert.deepEqual(read, { events: 5_000, logs: 50_000 }, 'read once PostgreSQL is back');
  });
});
