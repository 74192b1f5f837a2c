/**
 * Issue 32: the sign-in throttle holds across processes. PostgreSQL + Redis: two api processes
 * sharing one Redis; failures made on one count on the other (per account: the wait and when to
 * retry; per client address: 429 with Retry-After), and the counters are in Redis, not in the
 * table. Embedded: one process, counters in the `auth_throttle` table. Also the operator's
 * `user:reset-password`, whose link resets the password and ends every session.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '@tracker/core';
import { createClient } from 'redis';
import type { Tracker } from '../src';
import { runCli } from '../src/cli';
import { childEnv, createTestEnv, gql, MODES, signUpWithProject, startTracker, type TestEnv } from './helpers';

const SIGN_IN = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { session { token } } }`;

async function signIn(url: string, email: string, password: string) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: SIGN_IN, variables: { e: email, p: password } }),
  });
  const body = (await res.json()) as { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
}
const codeOf = (r: Awaited<ReturnType<typeof signIn>>) => r.body.errors?.[0]?.extensions?.code;

for (const mode of MODES) {
  describe(`sign-in throttle across processes (${mode})`, () => {
    let env: TestEnv;
    let processes: Tracker[] = [];
    let urls: string[];

    before(async () => {
      env = await createTestEnv(mode, { graphqlRateLimit: { requests: 0, windowMs: 60_000 } });
      const first = await startTracker(env, { roles: mode === 'embedded' ? ['ingest', 'worker', 'api'] : ['api'] });
      processes = [first];
      if (mode === 'postgres+redis') processes.push(await startTracker(env, { roles: ['api'] }, { migrate: false }));
      urls = processes.map((p) => p.url);
    });
    after(async () => {
      for (const p of processes.reverse()) await p.close();
      await env?.cleanup();
    });

    test('per account: 5 failures on one process, the next attempt on the other waits', { timeout: 120_000 }, async () => {
      const { email } = await signUpWithProject(urls[0]);
      for (let i = 0; i < 5; i++) {
        const r = await signIn(urls[i % urls.length], email, `wrong ${i}`);
        assert.equal(codeOf(r), 'UNAUTHENTICATED', JSON.stringify(r.body));
      }
      for (const url of urls) {
        const r = await signIn(url, email, 'correct horse battery');
        assert.equal(codeOf(r), 'RATE_LIMITED', JSON.stringify(r.body));
        assert.match(r.body.errors![0].message, /Too many failed attempts for this account: try again at \d\d:\d\d:\d\d UTC \(in \d+ s\)/);
      }
      if (mode === 'postgres+redis') {
        // In Redis, not in the table.
        const redis = createClient({ url: env.config.redisUrl });
        await redis.connect();
        try {
          const keys = await redis.keys(`${env.config.redisPrefix}:auththrottle:*`);
          assert.ok(keys.includes(`${env.config.redisPrefix}:auththrottle:sign-in:${email}`), keys.join(','));
        } finally {
          await redis.close();
        }
        const db = await openDatabase(env.config);
        try {
          assert.deepEqual(await db.ds.query('SELECT key FROM auth_throttle'), []);
        } finally {
          await db.close();
        }
      }
    });

    test('per client address: 50 failures (passwords and reset links) across processes answer 429 with Retry-After', { timeout: 180_000 }, async () => {
      // This client's count starts from the test above: 5 wrong passwords, and one refused attempt per
      // process (hammering a waiting account counts against the address too).
      let failures = 5 + urls.length;
      // Guessed reset links: the same per-address count as passwords, and cheap (no argon2) under load.
      const reset = `mutation($t: String!) { resetPassword(token: $t, newPassword: "long enough password") }`;
      for (let i = 0; failures < 50; i++, failures++) {
        const r = await gql(urls[i % urls.length], reset, { t: `etr_guess${i}` });
        assert.equal(r.errors?.[0]?.extensions?.code, 'NOT_FOUND', `attempt ${i}: ${JSON.stringify(r)}`);
      }
      for (const url of urls) {
        const r = await signIn(url, 'anyone@example.com', 'guess');
        assert.equal(r.status, 429, JSON.stringify(r.body));
        assert.equal(codeOf(r), 'RATE_LIMITED');
        assert.match(r.body.errors![0].message, /Too many failed attempts from this address/);
        assert.ok(Number(r.retryAfter) > 800 && Number(r.retryAfter) <= 900, String(r.retryAfter));
      }
    });
  });
}

describe('user:reset-password prints a link that resets the password and ends every session', () => {
  let env: TestEnv;
  let tracker: Tracker;
  before(async () => {
    env = await createTestEnv('postgres+redis');
    tracker = await startTracker(env, { roles: ['api'] });
  });
  after(async () => {
    await tracker?.close();
    await env?.cleanup();
  });

  test('the link from the command works once', { timeout: 120_000 }, async () => {
    const { email, token } = await signUpWithProject(tracker.url);
    const cliEnv = { ...childEnv(env), TRACKER_PUBLIC_URL: 'https://tracker.example.com' };
    const missing = await runCli(['user:reset-password', 'nobody@example.com'], cliEnv);
    assert.equal(missing.code, 1);
    const r = await runCli(['user:reset-password', email], cliEnv);
    assert.equal(r.code, 0, r.out);
    const link = /https:\/\/tracker\.example\.com\/reset-password\/(etr_\S+)/.exec(r.out);
    assert.ok(link, r.out);
    const reset = `mutation($t: String!, $p: String!) { resetPassword(token: $t, newPassword: $p) }`;
    assert.equal((await gql(tracker.url, reset, { t: link[1], p: 'operator made password' })).data?.resetPassword, true);
    assert.equal((await gql(tracker.url, reset, { t: link[1], p: 'again made password' })).errors?.[0]?.extensions?.code, 'NOT_FOUND');
    // The session from sign-up is over; the new password signs in.
    const viewer = await gql(tracker.url, '{ viewer { id } }', {}, token);
    assert.equal(viewer.data?.viewer, null);
    assert.ok((await signIn(tracker.url, email, 'operator made password')).body.data?.signIn.session.token);
    // The operator's other way back: two-factor off.
    const off = await runCli(['user:disable-two-factor', email], cliEnv);
    assert.equal(off.code, 0, off.out);
    assert.match(off.out, /two-factor is off for/);
    assert.equal((await runCli(['user:disable-two-factor', 'nobody@example.com'], cliEnv)).code, 1);
    // An operator's link does not prove the address: still unverified.
    const db = await openDatabase(env.config);
    try {
      const [u] = await db.ds.query('SELECT email_verified_at FROM users WHERE email = $1', [email]);
      assert.equal(u.email_verified_at, null);
    } finally {
      await db.close();
    }
  });
});
