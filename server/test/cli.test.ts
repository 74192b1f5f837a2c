import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Organization, openDatabase } from '@tracker/core';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '@tracker/core/testing';
import { runCli } from '../src/cli';
import { createTestEnv, gqlOk, sendError, signUpWithProject, startTracker } from './helpers';

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
    const slug = /organization (\S+)\)/.exec(created.out)![1];
    const changed = await runCli(['org:set-plan', slug, 'business'], env);
    assert.equal(changed.code, 0, changed.out);
    const db = await openDatabase({ databaseUrl: pg.url, dataDir: dir.path });
    const org = await db.ds.manager.findOneByOrFail(Organization, { slug });
    await db.close();
    assert.equal(org.plan, 'business');
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
  test('rotates a DSN key (old key refused after rotation) and refuses to open a folder in use', async () => {
    const testEnv = await createTestEnv('embedded');
    const tracker = await startTracker(testEnv);
    const a = await signUpWithProject(tracker.url);
    const busy = await runCli(['key:rotate', a.project.id], { TRACKER_DATA_DIR: testEnv.config.dataDir });
    assert.equal(busy.code, 1);
    assert.match(busy.out, /in use by another Tracker process/);
    await tracker.close();

    const rotated = await runCli(['key:rotate', a.project.id], { TRACKER_DATA_DIR: testEnv.config.dataDir, PORT: '3000' });
    assert.equal(rotated.code, 0, rotated.out);
    const newKey = /new DSN: http:\/\/(et_[0-9a-f]{32})@/.exec(rotated.out)![1];

    const again = await startTracker(testEnv);
    assert.equal((await sendError(again.url, a.key, { type: 'E', message: 'm', environment: 'p' })).status, 401);
    assert.equal((await sendError(again.url, newKey, { type: 'E', message: 'm', environment: 'p' })).status, 202);
    const project = await gqlOk(again.url, `query($id: ID!) { project(id: $id) { dsn } }`, { id: a.project.id }, a.token);
    assert.equal(new URL(project.project.dsn).username, newKey);
    await again.close();
    await testEnv.cleanup();
  });
});
