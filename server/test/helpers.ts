import { loadConfig, type Config } from '@tracker/core';
import { createTempDir, createTestPostgres, createTestRedisPrefix, TEST_REDIS_URL } from '@tracker/core/testing';
import { createClient } from 'redis';
import { createTracker, type Tracker, type TrackerOptions } from '../src';

export type Mode = 'embedded' | 'postgres+redis';
export const MODES: Mode[] = ['embedded', 'postgres+redis'];

export interface TestEnv {
  mode: Mode;
  config: Config;
  cleanup(): Promise<void>;
}

/** Storage for one suite: a PGlite folder, or a fresh PostgreSQL database plus a Redis prefix. */
export async function createTestEnv(mode: Mode, overrides: Partial<Config> = {}): Promise<TestEnv> {
  const dir = createTempDir();
  const pg = mode === 'postgres+redis' ? await createTestPostgres() : undefined;
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      TRACKER_DATA_DIR: dir.path,
      TRACKER_LOG_LEVEL: process.env.TRACKER_TEST_LOG_LEVEL ?? 'silent',
      TRACKER_ROLES: 'ingest,worker,api',
      ...(pg ? { DATABASE_URL: pg.url, REDIS_URL: TEST_REDIS_URL, TRACKER_REDIS_PREFIX: createTestRedisPrefix() } : {}),
    },
    overrides,
  );
  return {
    mode,
    config,
    async cleanup() {
      await pg?.drop();
      if (config.redisUrl && config.redisPrefix) await deleteRedisPrefix(config.redisUrl, config.redisPrefix);
      dir.remove();
    },
  };
}

/** The environment that points a child Tracker process (`startChildServer`, `runCli`) at a suite's storage. */
export function childEnv(env: TestEnv): Record<string, string> {
  const c = env.config;
  return {
    TRACKER_DATA_DIR: c.dataDir,
    ...(c.databaseUrl ? { DATABASE_URL: c.databaseUrl } : {}),
    ...(c.redisUrl ? { REDIS_URL: c.redisUrl, TRACKER_REDIS_PREFIX: c.redisPrefix } : {}),
  };
}

/** The suite's Redis keys (streams, quota counters), so runs leave nothing behind in Redis. */
async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = createClient({ url });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const keys: string[] = [];
    for await (const batch of redis.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) keys.push(...batch);
    if (keys.length > 0) await redis.del(keys);
  } catch {
    // best effort: a suite whose Redis went away has nothing more to clean
  } finally {
    if (redis.isOpen) await redis.close();
  }
}

export async function startTracker(
  env: TestEnv,
  overrides: Partial<Config> = {},
  options: Partial<TrackerOptions> = {},
): Promise<Tracker> {
  const tracker = await createTracker({
    config: { ...env.config, ...overrides },
    queue: { reclaimIdleMs: 1_000, retryBaseMs: 100 },
    ...options,
  });
  await tracker.listen();
  return tracker;
}

export async function gql<T = any>(
  baseUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<{ data?: T; errors?: Array<{ message: string; extensions?: { code?: string } }> }> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as any;
}

/** gql that fails the test on any GraphQL error. */
export async function gqlOk<T = any>(
  baseUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<T> {
  const r = await gql<T>(baseUrl, query, variables, token);
  if (r.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
  return r.data!;
}

let accounts = 0;
/** Signs up a fresh account and creates a project; returns what a test needs. */
/**
 * A new account with its organization and one project. On a Tracker that sends email, sign-up
 * answers only "check your email" (decision 066): pass the SMTP receiver's messages as `mail` and
 * the account is confirmed through the emailed link and signed in.
 */
export async function signUpWithProject(
  baseUrl: string,
  name = 'Web',
  mail?: { messages: { to: string[]; raw: string }[] },
) {
  accounts += 1;
  const email = `user${accounts}-${Date.now()}@example.com`;
  let s = await gqlOk(
    baseUrl,
    `mutation($e: String!, $p: String!, $o: String!) { signup(email: $e, password: $p, organizationName: $o) { token checkEmail user { id email } organization { id slug plan } } }`,
    { e: email, p: 'correct horse battery', o: `Org ${accounts}` },
  );
  if (s.signup.checkEmail) {
    if (!mail) throw new Error('this Tracker sends email: pass its SMTP receiver to signUpWithProject');
    const message = await waitFor('the sign-up confirmation email', async () =>
      mail.messages.find((m) => m.to.includes(email)),
    );
    // Taken out of the mailbox: tests that count their own emails do not count this one.
    mail.messages.splice(mail.messages.indexOf(message), 1);
    const raw = message.raw.replace(/=\r?\n/g, '');
    const link = /verify-email\/(etv_[A-Za-z0-9_-]+)/.exec(raw)?.[1];
    // The link is used by the account's own session (decision 066): sign in, confirm, sign in
    // again for the organization the confirmation created.
    const first = await gqlOk(
      baseUrl,
      `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`,
      { e: email, p: 'correct horse battery' },
    );
    await gqlOk(
      baseUrl,
      `mutation($t: String!) { confirmEmailAddress(token: $t) { email } }`,
      { t: link },
      first.login.token,
    );
    const l = await gqlOk(
      baseUrl,
      `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token user { id email } organization { id slug plan } } }`,
      { e: email, p: 'correct horse battery' },
    );
    s = { signup: l.login };
  }
  const token: string = s.signup.token;
  const p = await gqlOk(
    baseUrl,
    `mutation($org: ID!, $name: String!) { createProject(organizationId: $org, name: $name) { id name dsn } }`,
    { org: s.signup.organization.id, name },
    token,
  );
  const dsn: string = p.createProject.dsn;
  const key = new URL(dsn).username;
  return { email, token, organization: s.signup.organization, project: p.createProject, dsn, key };
}

/**
 * A fresh account and project for a Sentry SDK: its project number, its DSN pointed at `host`
 * (Tracker's own, or a recording proxy's), and a GraphQL caller with the owner's token.
 */
export async function sentryProject(trackerUrl: string, name: string, host?: string) {
  const acct = await signUpWithProject(trackerUrl, name);
  const dsnUrl = new URL(acct.dsn);
  const number = dsnUrl.pathname.split('/').filter(Boolean).pop()!;
  const sentryDsn = `http://${dsnUrl.username}@${host ?? dsnUrl.host}/${number}`;
  const q = <T = any>(query: string, variables: Record<string, unknown> = { p: acct.project.id }) =>
    gqlOk<T>(trackerUrl, query, variables, acct.token);
  return { ...acct, number, sentryDsn, q };
}

export async function sendError(baseUrl: string, key: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}/ingest/error`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `DSN ${key}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const ISSUES_QUERY = `query($p: ID!, $first: Int, $after: String) {
  issues(projectId: $p, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor }
    nodes { id title type culprit status level eventCount userCount firstSeen lastSeen
      latestEvent { eventId message environment release frames { filename function lineno colno inApp } } }
    edges { cursor node { id } }
  } }`;

export function chromeStack(fn: string, line: number): string {
  return `TypeError: Cannot read properties of undefined (reading 'id')\n    at ${fn} (https://app.example.com/static/js/main.3f2a1b9c.js:${line}:17)\n    at HTMLButtonElement.onClick (https://app.example.com/static/js/main.3f2a1b9c.js:88:5)`;
}
