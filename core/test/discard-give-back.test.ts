import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  createProject,
  openDatabase,
  persistEvents,
  prepareEvent,
  purgeExpired,
  signUp,
  type Database,
  type ErrorEvent,
} from '../src';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '../src/testing';

/**
 * Events of a discarded issue that reach the worker are dropped and their quota units given
 * back (docs/quotas.md); a batch delivered again after its ack failed must not give them back a
 * second time. Both engines.
 */
for (const kind of ['postgres', 'pglite'] as const) {
  describe(`dropped events give their quota back once (${kind})`, () => {
    let pg: TestPostgres | undefined;
    let dir: TempDir | undefined;
    let db: Database;

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      dir = kind === 'pglite' ? createTempDir() : undefined;
      db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' }, { migrate: true });
    });
    after(async () => {
      await db.close();
      await pg?.drop();
      dir?.remove();
    });

    function job(projectId: string, eventId: string, receivedAt: Date) {
      return prepareEvent({
        v: 1,
        kind: 'error',
        projectId,
        receivedAt: receivedAt.toISOString(),
        event: {
          type: 'Error',
          message: 'discarded',
          environment: 'production',
          fingerprint: ['discarded'],
          timestamp: receivedAt.toISOString(),
          eventId,
        } as ErrorEvent & { eventId: string },
      });
    }

    test('a batch delivered again after its commit gives nothing back twice', async () => {
      const s = await signUp(
        db.ds,
        { email: `d-${randomUUID()}@example.com`, password: 'long enough pw', organizationName: 'Drops' },
        'free',
      );
      const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'Web');
      const now = new Date();
      await db.ds.transaction((em) => persistEvents(em, [job(project.id, randomUUID(), now)]));
      await db.ds.query('UPDATE issues SET discarded_at = now() WHERE project_id = $1', [project.id]);

      const batch = [randomUUID(), randomUUID(), randomUUID()].map((id) => job(project.id, id, now));
      const first = await db.ds.transaction((em) => persistEvents(em, batch));
      assert.equal(first.inserted, 0);
      assert.deepEqual(
        first.discarded.map((d) => [d.organizationId, d.count]),
        [[s.organization.id, 3]],
      );
      // The same batch again, as after an ack that failed once it had committed.
      const again = await db.ds.transaction((em) => persistEvents(em, batch));
      assert.equal(again.inserted, 0);
      assert.deepEqual(again.discarded, []);
      // A new event of the discarded issue still gives its unit back.
      const next = await db.ds.transaction((em) => persistEvents(em, [job(project.id, randomUUID(), now)]));
      assert.deepEqual(
        next.discarded.map((d) => d.count),
        [1],
      );
    });

    test('the ledger goes with the plan retention', async () => {
      const s = await signUp(
        db.ds,
        { email: `d-${randomUUID()}@example.com`, password: 'long enough pw', organizationName: 'Old drops' },
        'free', // 30 days
      );
      const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'Web');
      const old = new Date(Date.now() - 40 * 86_400_000);
      await db.ds.transaction((em) => persistEvents(em, [job(project.id, randomUUID(), old)]));
      await db.ds.query('UPDATE issues SET discarded_at = now() WHERE project_id = $1', [project.id]);
      await db.ds.transaction((em) => persistEvents(em, [job(project.id, randomUUID(), old)]));
      const count = async () =>
        (await db.ds.query('SELECT count(*)::int AS n FROM discarded_events WHERE project_id = $1', [project.id]))[0].n;
      assert.equal(await count(), 1);
      const r = await purgeExpired(db.ds);
      assert.ok(r.discardedEvents >= 1);
      assert.equal(await count(), 0);
    });
  });
}
