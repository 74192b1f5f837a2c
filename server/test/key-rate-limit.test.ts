/**
 * A DSN key's own rate limit (issue 30, part 6), set through GraphQL (`updateProjectKey`) and
 * enforced on real requests to Sentry's endpoints and ours: over it, 429 with `Retry-After` and,
 * for Sentry's SDKs, `X-Sentry-Rate-Limits: <seconds>::key:rate_limited` (no categories: all of
 * what the key sends). The clock is held, so "one second" is exact; the key is in the edge's
 * cache before the change, so the test shows the change reaching a running edge (docs/quotas.md).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { createTestEnv, gql, gqlOk, MODES, sendError, signUpWithProject, startTracker, type TestEnv } from './helpers';
import { buildEnvelope, errorEvent, item } from './sentry-envelope';

const UPDATE = `mutation($p: ID!, $k: ID!, $r: Int) {
  updateProjectKey(projectId: $p, keyId: $k, rateLimitPerSecond: $r) { id publicKey rateLimitPerSecond } }`;
const KEYS = `query($p: ID!) { projectKeys(projectId: $p) { id publicKey rateLimitPerSecond } }`;

for (const mode of MODES) {
  describe(`per-key rate limit set through GraphQL (${mode})`, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;
    let now = Date.now();

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, {}, { clock: () => now });
    });
    after(async () => {
      await tracker?.close().catch(() => undefined);
      await env?.cleanup().catch(() => undefined);
    });

    test('set, refused over it on every door with the key scope, lifted with null', { timeout: 120_000 }, async () => {
      const acct = await signUpWithProject(tracker!.url, 'Limited');
      const projectId: string = acct.project.id;
      const number = new URL(acct.dsn).pathname.split('/').pop();
      const [key] = (await gqlOk(tracker!.url, KEYS, { p: projectId }, acct.token)).projectKeys;
      assert.equal(key.rateLimitPerSecond, null);

      const envelope = async () => {
        const body = buildEnvelope({}, [item('event', errorEvent(randomUUID().replace(/-/g, '')))]);
        const res = await fetch(`${tracker!.url}/api/${number}/envelope/?sentry_key=${acct.key}&sentry_version=7`, {
          method: 'POST',
          body,
        });
        return {
          status: res.status,
          limits: res.headers.get('x-sentry-rate-limits'),
          retryAfter: res.headers.get('retry-after'),
          body: (await res.json()) as any,
        };
      };
      const store = async () => {
        const res = await fetch(`${tracker!.url}/api/${number}/store/?sentry_key=${acct.key}&sentry_version=7`, {
          method: 'POST',
          body: JSON.stringify({ message: 'over the limit?' }),
        });
        return { status: res.status, limits: res.headers.get('x-sentry-rate-limits') };
      };

      // The key is read into the edge's cache with no limit.
      assert.equal((await envelope()).status, 200);

      for (const bad of [0, -1, 1_000_001]) {
        const r = await gql(tracker!.url, UPDATE, { p: projectId, k: key.id, r: bad }, acct.token);
        assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', `${bad}: ${JSON.stringify(r.errors)}`);
        assert.match(r.errors![0].message, /from 1 to 1,000,000, or null for no limit/);
      }
      const other = await signUpWithProject(tracker!.url, 'Other');
      const foreign = await gql(tracker!.url, UPDATE, { p: projectId, k: key.id, r: 5 }, other.token);
      assert.equal(foreign.errors?.[0]?.extensions?.code, 'NOT_FOUND');

      const set = await gqlOk(tracker!.url, UPDATE, { p: projectId, k: key.id, r: 3 }, acct.token);
      assert.deepEqual(set.updateProjectKey, { id: key.id, publicKey: key.publicKey, rateLimitPerSecond: 3 });
      assert.equal(
        (await gqlOk(tracker!.url, KEYS, { p: projectId }, acct.token)).projectKeys[0].rateLimitPerSecond,
        3,
      );

      now = (Math.floor(now / 1000) + 1) * 1000; // the start of a fresh second
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await envelope());
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200, 429, 429],
      );
      for (const refused of answers.slice(3)) {
        assert.equal(refused.limits, '1::key:rate_limited');
        assert.equal(refused.retryAfter, '1');
        assert.equal(refused.body.error.code, 'RATE_LIMITED');
        assert.equal(refused.body.error.message, 'rate limit of 3 events per second exceeded for this key');
      }
      assert.deepEqual(await store(), { status: 429, limits: '1::key:rate_limited' });
      const ours = await sendError(tracker!.url, acct.key, {
        message: 'ours too',
        type: 'Error',
        environment: 'production',
      });
      assert.equal(ours.status, 429);
      assert.equal(ours.headers.get('retry-after'), '1');

      // The next second has room again.
      now += 1000;
      assert.equal((await store()).status, 200);

      const lifted = await gqlOk(tracker!.url, UPDATE, { p: projectId, k: key.id, r: null }, acct.token);
      assert.equal(lifted.updateProjectKey.rateLimitPerSecond, null);
      const statuses = [];
      for (let i = 0; i < 8; i++) statuses.push((await envelope()).status);
      assert.deepEqual(statuses, Array(8).fill(200));
    });
  });
}
