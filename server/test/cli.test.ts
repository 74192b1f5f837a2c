import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Organization, openDatabase } from '@tracker/core';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '@tracker/core/testing';
import { runCli } from '../src/cli';
import {
  createTestEnv,
  gqlOk,
  MODES,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';

describe('operator command', () => {
  let pg: TestPostgres;
  let dir: TempDir;
  let env: Record<string, string>;
  before(async () => {
    pg = await createTestPostgres();
    dir = createTempDir();
    env = { DATABASE_URL: pg.url, TRACKER_DATA_DIR: dir.path, TRACKER_PUBLIC_URL: 'https://tracker.example.com' };
  });
  after(async () => {
    await pg.drop();
    dir.remove();
  });

  test('refuses other commands before migrate, then migrates', async () => {
    const early = await runCli(['org:set-plan', 'x', 'pro'], env);
    assert.equal(early.code, 1);
    assert.match(early.out, /pending migrations/);
    const r = await runCli(['migrate'], env);
    assert.deepEqual(r, { code: 0, out: 'migrations are up to date' });
  });

  test('creates a user and changes the plan of their organization', async () => {
    const created = await runCli(['user:create', 'ops@example.com'], env);
    assert.equal(created.code, 0, created.out);
    // The instance's first account is its admin (decision 051); later ones only with --admin.
    assert.match(created.out, /, instance admin\)/);
    const plain = await runCli(['user:create', 'dev@example.com'], env);
    assert.doesNotMatch(plain.out, /instance admin/);
    assert.match((await runCli(['user:create', 'ops2@example.com', '--admin'], env)).out, /, instance admin\)/);
    assert.equal((await runCli(['user:create', 'x@example.com', '--root'], env)).code, 2);
    const slug = /organization ([^,)\s]+)/.exec(created.out)![1];
    const changed = await runCli(['org:set-plan', slug, 'business'], env);
    assert.equal(changed.code, 0, changed.out);
    const db = await openDatabase({ databaseUrl: pg.url, dataDir: dir.path });
    const org = await db.ds.manager.findOneByOrFail(Organization, { slug });
    // Recorded in the organization's audit log, by the operator, with the change (issue 32).
    const audit = await db.ds.query(
      `SELECT actor_type, actor_label, changes FROM audit_log WHERE organization_id = $1 AND action = 'organization.plan_changed'`,
      [org.id],
    );
    await db.close();
    assert.equal(org.plan, 'business');
    assert.deepEqual(
      audit.map((r: any) => [r.actor_type, r.actor_label, r.changes]),
      [['system', 'operator', { before: { plan: 'free' }, after: { plan: 'business' } }]],
    );
  });

  test('refuses bad input with a message and a non-zero exit', async () => {
    assert.match((await runCli(['org:set-plan', 'nope', 'pro'], env)).out, /no organization with slug "nope"/);
    const unknownPlan = await runCli(['org:set-plan', 'nope', 'platinum'], env);
    assert.equal(unknownPlan.code, 1);
    assert.match(unknownPlan.out, /unknown plan "platinum": expected one of free, pro, business/);
    assert.equal((await runCli(['key:rotate', 'not-a-uuid'], env)).code, 1);
    assert.equal((await runCli(['frobnicate'], env)).code, 2);
    assert.equal((await runCli(['org:set-plan', 'only-one-arg'], env)).code, 2);
    assert.match((await runCli(['migrate'], { DATABASE_URL: 'not a url' })).out, /DATABASE_URL/);
  });
});

describe('operator command on the embedded database', () => {
  test('rotates a DSN key while the server runs (the old key refused at once) and with it stopped', async () => {
    const testEnv = await createTestEnv('embedded');
    const tracker = await startTracker(testEnv);
    const a = await signUpWithProject(tracker.url);
    // The server holds the folder: the command goes over its control socket (decision 052).
    const live = await runCli(['key:rotate', a.project.id], { TRACKER_DATA_DIR: testEnv.config.dataDir });
    assert.equal(live.code, 0, live.out);
    const liveKey = /new DSN: http:\/\/(et_[0-9a-f]{32})@/.exec(live.out)![1];
    assert.equal((await sendError(tracker.url, a.key, { type: 'E', message: 'm', environment: 'p' })).status, 401);
    assert.equal((await sendError(tracker.url, liveKey, { type: 'E', message: 'm', environment: 'p' })).status, 202);
    await tracker.close();

    const rotated = await runCli(['key:rotate', a.project.id], {
      TRACKER_DATA_DIR: testEnv.config.dataDir,
      PORT: '3000',
    });
    assert.equal(rotated.code, 0, rotated.out);
    const newKey = /new DSN: http:\/\/(et_[0-9a-f]{32})@/.exec(rotated.out)![1];

    const again = await startTracker(testEnv);
    assert.equal((await sendError(again.url, liveKey, { type: 'E', message: 'm', environment: 'p' })).status, 401);
    assert.equal((await sendError(again.url, newKey, { type: 'E', message: 'm', environment: 'p' })).status, 202);
    const project = await gqlOk(
      again.url,
      `query($id: ID!) { project(id: $id) { dsn } }`,
      { id: a.project.id },
      a.token,
    );
    assert.equal(new URL(project.project.dsn).username, newKey);
    await again.close();
    await testEnv.cleanup();
  });
});

for (const mode of MODES) {
  describe(`dead-letter commands (${mode})`, () => {
    let testEnv: TestEnv;
    after(async () => {
      await testEnv?.cleanup();
    });

    test('list shows why, replay stores the job once its cause is fixed, purge deletes by age', async () => {
      testEnv = await createTestEnv(mode);
      const cliEnv = {
        TRACKER_DATA_DIR: testEnv.config.dataDir,
        ...(testEnv.config.databaseUrl
          ? {
              DATABASE_URL: testEnv.config.databaseUrl,
              REDIS_URL: testEnv.config.redisUrl!,
              TRACKER_REDIS_PREFIX: testEnv.config.redisPrefix,
            }
          : {}),
      };
      let tracker = await startTracker(testEnv);
      const a = await signUpWithProject(tracker.url);
      // A failure of the data that an operator can fix: a trigger refusing one message.
      await tracker.db.ds.query(`
        CREATE FUNCTION cli_test_reject() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.message = 'reject me' THEN RAISE EXCEPTION 'refused by the operator''s trigger'; END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER cli_test_reject BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION cli_test_reject();
      `);
      assert.equal(
        (await sendError(tracker.url, a.key, { type: 'E', message: 'reject me', environment: 'p' })).status,
        202,
      );
      await waitFor(
        'the dead letter',
        async () => (await tracker.db.ds.query('SELECT count(*)::int AS n FROM dead_letters'))[0].n === 1,
        60_000,
      );
      if (mode === 'embedded') {
        // Answered by the running server over its control socket; then the rest with it stopped.
        const live = await runCli(['dead-letter:list'], cliEnv);
        assert.equal(live.code, 0, live.out);
        assert.match(live.out, /refused by the operator's trigger/);
        await tracker.db.ds.query('DROP TRIGGER cli_test_reject ON events');
        await tracker.close();
      }
      const list = await runCli(['dead-letter:list'], cliEnv);
      assert.equal(list.code, 0, list.out);
      assert.match(list.out, new RegExp(`jobs/error {2}project ${a.project.id}`));
      assert.match(list.out, /5 attempt\(s\), first failed \S+, last \S+/);
      assert.match(list.out, /refused by the operator's trigger/);
      const id = /^#(\d+)/.exec(list.out)![1];

      if (mode !== 'embedded') await tracker.db.ds.query('DROP TRIGGER cli_test_reject ON events');
      const replay = await runCli(['dead-letter:replay', id], cliEnv);
      assert.equal(replay.code, 0, replay.out);
      assert.equal(replay.out, `queued 1 dead letter(s) again: #${id}`);
      assert.equal((await runCli(['dead-letter:replay', id], cliEnv)).out, `no dead letter #${id}`);
      if (mode === 'embedded') tracker = await startTracker(testEnv);
      await waitFor('the replayed event', async () => {
        const rows = await tracker.db.ds.query(`SELECT count(*)::int AS n FROM events WHERE message = 'reject me'`);
        return rows[0].n === 1;
      });
      assert.equal((await tracker.db.ds.query('SELECT count(*)::int AS n FROM dead_letters'))[0].n, 0);

      // Purge by the age of the last failure.
      await tracker.db.ds.query(`
        INSERT INTO dead_letters (message_id, topic, payload, error, attempts, first_failed_at, last_failed_at) VALUES
          ('test:old', 'jobs', 'x', 'old', 5, now() - interval '40 days', now() - interval '40 days'),
          ('test:new', 'jobs', 'y', 'new', 5, now() - interval '2 days', now() - interval '2 days')`);
      if (mode === 'embedded') await tracker.close();
      const purge = await runCli(['dead-letter:purge', '--older-than', '30'], cliEnv);
      assert.deepEqual(purge, { code: 0, out: 'deleted 1 dead letter(s) older than 30 day(s)' });
      assert.equal((await runCli(['dead-letter:purge', '--older-than', 'soon'], cliEnv)).code, 2);
      assert.equal((await runCli(['dead-letter:replay'], cliEnv)).code, 2);
      const left = await runCli(['dead-letter:list', '--limit', '5'], cliEnv);
      assert.match(left.out, /\n {4}new$/);
      if (mode !== 'embedded') await tracker.close();
    });
  });
}
