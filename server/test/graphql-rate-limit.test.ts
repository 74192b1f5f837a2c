/**
 * GraphQL requests per token (issue 5): over the limit the answer is HTTP 429 with
 * `Retry-After` and `errors[0].extensions.code = RATE_LIMITED`; after the advertised wait the
 * token gets through again. With Redis the budget is shared by every api process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTracker, type Tracker } from '../src';
import { runCli } from '../src/cli';
import { startChildServer, type ChildServer } from './child-server';
import { createTestEnv, gqlOk, MODES, signUpWithProject, type TestEnv } from './helpers';

const LIMIT = { requests: 5, windowMs: 1_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post(url: string, token?: string) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: '{ viewer { id } }' }),
  });
  const json = (await res.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: any }> };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), json };
}

/** Two full windows: every earlier count has slid out; then the start of a fresh window. */
async function freshWindow() {
  await sleep(2 * LIMIT.windowMs);
  await sleep(LIMIT.windowMs - (Date.now() % LIMIT.windowMs) + 5);
}

for (const mode of MODES) {
  describe(`GraphQL rate limit per token (${mode})`, () => {
    let env: TestEnv;
    let processes: Tracker[];

    before(async () => {
      env = await createTestEnv(mode, { graphqlRateLimit: LIMIT });
      const first = await createTracker({ config: env.config });
      await first.listen();
      processes = [first];
      if (mode === 'postgres+redis') {
        // A second api process on the same PostgreSQL and Redis.
        const second = await createTracker({ config: { ...env.config, roles: ['api'] }, migrate: false });
        await second.listen();
        processes.push(second);
      }
    });
    after(async () => {
      for (const p of processes ?? []) await p.close();
      await env?.cleanup();
    });

    test(
      'refuses over the limit with RATE_LIMITED and 429, and recovers after Retry-After',
      { timeout: 30_000 },
      async () => {
        const urls = processes.map((p) => p.url);
        const acct = await signUpWithProject(urls[0]);
        await freshWindow();
        const answers = [];
        for (let i = 0; i < 8; i++) answers.push(await post(urls[i % urls.length], acct.token));
        const ok = answers.filter((a) => a.status === 200);
        const refused = answers.filter((a) => a.status === 429);
        assert.equal(ok.length, LIMIT.requests, `statuses ${answers.map((a) => a.status)}`);
        assert.equal(refused.length, 8 - LIMIT.requests);
        for (const r of refused) {
          assert.equal(r.json.errors?.[0]?.extensions?.code, 'RATE_LIMITED');
          assert.equal(r.json.data, undefined);
          const seconds = Number(r.retryAfter);
          assert.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 2, `Retry-After ${r.retryAfter}`);
          assert.equal(r.json.errors?.[0]?.extensions?.retryAfter, seconds);
        }
        // Other callers have budgets of their own: anonymous requests count per address.
        assert.equal((await post(urls[0])).status, 200);

        await sleep(Number(refused[refused.length - 1].retryAfter) * 1000);
        const again = await post(urls[urls.length - 1], acct.token);
        assert.equal(again.status, 200, JSON.stringify(again.json));
        assert.ok((again.json.data as any).viewer.id);
      },
    );

    test(
      'requests with unknown tokens are limited by address, not per made-up token',
      { timeout: 30_000 },
      async () => {
        const urls = processes.map((p) => p.url);
        await freshWindow();
        const statuses = [];
        for (let i = 0; i < 7; i++) statuses.push((await post(urls[i % urls.length], `ets_made-up-${i}`)).status);
        // Below the limit they get the ordinary answer (200, no viewer); then the address is over.
        assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
      },
    );
  });
}

for (const mode of MODES) {
  describe(`the GraphQL rate limit's window follows the tracker's clock (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    /** Held at the start of a window, years from the wall clock. */
    let now = Date.parse('2031-03-15T12:00:00.000Z');

    before(async () => {
      env = await createTestEnv(mode, { graphqlRateLimit: LIMIT });
      tracker = await createTracker({ config: env.config, clock: () => now });
      await tracker.listen();
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    test('a held clock keeps the window shut however long the wall clock runs; a moved one opens it', async () => {
      const acct = await signUpWithProject(tracker.url);
      now += 2 * LIMIT.windowMs; // past the window the sign-up's own requests counted in
      const statuses = [];
      for (let i = 0; i < LIMIT.requests + 1; i++) statuses.push((await post(tracker.url, acct.token)).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
      await sleep(2 * LIMIT.windowMs + 100); // two windows of the wall clock: both would have slid out
      assert.equal((await post(tracker.url, acct.token)).status, 429, 'the clock stood still');
      now += 2 * LIMIT.windowMs;
      assert.equal((await post(tracker.url, acct.token)).status, 200, 'two windows of the clock later');
    });
  });
}

describe('a refused request is logged with the API token id, never its secret', () => {
  let env: TestEnv;
  let server: ChildServer | undefined;

  after(async () => {
    await server?.kill();
    await env?.cleanup();
  });

  test('warn line with apiTokenId', { timeout: 90_000 }, async () => {
    env = await createTestEnv('postgres+redis');
    const c = env.config;
    const vars = { DATABASE_URL: c.databaseUrl!, REDIS_URL: c.redisUrl!, TRACKER_REDIS_PREFIX: c.redisPrefix };
    assert.equal((await runCli(['migrate'], vars)).code, 0);
    // The real entry point, reading TRACKER_GRAPHQL_RATE_LIMIT from its environment: 3 a minute.
    server = await startChildServer({ ...vars, TRACKER_DATA_DIR: c.dataDir, TRACKER_GRAPHQL_RATE_LIMIT: '3' }, 'api');
    const acct = await signUpWithProject(server.url);
    const created = await gqlOk(
      server.url,
      'mutation { createApiToken(name: "ci", scopes: [READ]) { token apiToken { id } } }',
      {},
      acct.token,
    );
    const { token, apiToken } = created.createApiToken;
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(server.url, token)).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    const lines = server
      .output()
      .split('\n')
      .filter((l) => l.includes('graphql rate limit exceeded'));
    assert.equal(lines.length, 1, 'one line per subject per minute');
    assert.equal(JSON.parse(lines[0]).apiTokenId, apiToken.id);
    assert.equal(server.output().includes(token), false, 'the secret is never logged');
  });
});
