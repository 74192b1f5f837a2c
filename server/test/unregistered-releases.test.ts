import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  gql,
  gqlOk,
  MODES,
  createTestEnv,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';
import type { Tracker } from '../src';

/**
 * Issue 31 §3: versions seen on events but never registered are listed as "seen, not registered"
 * (with their environments and event counts, most recently seen first); registering one (Mark
 * release, on a plan with releases) takes it off the list; another tenant gets NOT_FOUND.
 */
const UNREGISTERED = `query($p: ID!) { unregisteredReleases(projectId: $p) { version environments eventCount firstSeen lastSeen } }`;
const MARK = `mutation($p: ID!, $v: String!, $e: String) { markRelease(projectId: $p, version: $v, environment: $e) { id } }`;

for (const mode of MODES) {
  describe(`releases seen, not registered (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    test('listed from the events, newest first; gone once registered; not another tenant', async () => {
      const a = await signUpWithProject(tracker.url);
      await tracker.db.ds.query(`UPDATE organizations SET plan = 'pro' WHERE id = $1`, [a.organization.id]);
      const send = (release: string, environment: string, message: string) =>
        sendError(tracker.url, a.key, { type: 'Error', message, environment, release, eventId: randomUUID() });
      await gqlOk(tracker.url, MARK, { p: a.project.id, v: 'web@1.0.0', e: 'production' }, a.token);
      for (const [release, environment, message] of [
        ['web@1.0.0', 'production', 'registered one'],
        ['web@1.0.1', 'production', 'first unregistered'],
        ['web@1.0.1', 'staging', 'first unregistered'],
        ['web@1.0.1', 'production', 'another issue'],
      ]) {
        assert.equal((await send(release, environment, message)).status, 202);
      }
      await new Promise((r) => setTimeout(r, 1_100)); // a later last-seen for the next version
      assert.equal((await send('web@1.1.0-rc', 'staging', 'newest')).status, 202);

      const list = await waitFor(
        'both versions listed',
        async () => {
          const r = (await gqlOk(tracker.url, UNREGISTERED, { p: a.project.id }, a.token)).unregisteredReleases;
          return r.length === 2 && r[1].eventCount === 3 ? r : undefined;
        },
        30_000,
      );
      assert.deepEqual(
        list.map((r: { version: string; environments: string[]; eventCount: number }) => [
          r.version,
          r.environments,
          r.eventCount,
        ]),
        [
          ['web@1.1.0-rc', ['staging'], 1],
          ['web@1.0.1', ['production', 'staging'], 3],
        ],
      );

      await gqlOk(tracker.url, MARK, { p: a.project.id, v: 'web@1.0.1', e: 'production' }, a.token);
      const after = (await gqlOk(tracker.url, UNREGISTERED, { p: a.project.id }, a.token)).unregisteredReleases;
      assert.deepEqual(
        after.map((r: { version: string }) => r.version),
        ['web@1.1.0-rc'],
      );

      const b = await signUpWithProject(tracker.url);
      const stranger = await gql(tracker.url, UNREGISTERED, { p: a.project.id }, b.token);
      assert.equal(stranger.errors?.[0].extensions?.code, 'NOT_FOUND');
    });
  });
}
