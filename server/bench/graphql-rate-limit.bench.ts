/**
 * What the GraphQL rate limit costs: requests/s of an authenticated `{ viewer { id } }` on the
 * api role (PostgreSQL + Redis mode) with the limit off (`requests: 0`) and on with a limit no
 * run reaches (the Redis script runs on every request), alternating off/on/on/off in one run.
 * autocannon runs in this process beside the servers: the figures compare, they are not absolute.
 *
 * Run: `cd server && TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/graphql-rate-limit.bench.ts`
 * Env: TRACKER_BENCH_DURATION (s, default 5), TRACKER_BENCH_CONNECTIONS (default 20).
 */
import autocannon from 'autocannon';
import { loadConfig } from '@tracker/core';
import {
  createTempDir,
  createTestPostgres,
  createTestRedisPrefix,
  envNumber,
  TEST_REDIS_URL,
} from '@tracker/core/testing';
import { createTracker, type Tracker } from '../src';

const DURATION_S = envNumber('BENCH_DURATION', 5);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 20);

async function main() {
  const pg = await createTestPostgres();
  const dir = createTempDir();
  const base = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    TRACKER_DATA_DIR: dir.path,
    TRACKER_LOG_LEVEL: 'silent',
    TRACKER_ROLES: 'api',
    DATABASE_URL: pg.url,
    REDIS_URL: TEST_REDIS_URL,
    TRACKER_REDIS_PREFIX: createTestRedisPrefix(),
  });
  const start = async (requests: number) => {
    const t = await createTracker({ config: { ...base, graphqlRateLimit: { requests, windowMs: 60_000 } } });
    await t.listen();
    return t;
  };
  const off = await start(0);
  const on = await start(100_000_000);
  const signup = await fetch(`${off.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query:
        'mutation { signup(email: "bench@example.com", password: "correct horse battery", organizationName: "Bench") { token } }',
    }),
  });
  const token = ((await signup.json()) as any).data.signup.token as string;

  const run = async (t: Tracker) => {
    const r = await autocannon({
      url: `${t.url}/graphql`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: DURATION_S,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ viewer { id } }' }),
    });
    if (r.non2xx > 0) throw new Error(`${r.non2xx} non-2xx answers`);
    return r.requests.average;
  };
  await run(off); // warm-up
  await run(on);
  const results: Record<'off' | 'on', number[]> = { off: [], on: [] };
  for (const which of ['off', 'on', 'on', 'off'] as const) results[which].push(await run(which === 'off' ? off : on));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`limit off: ${results.off.map(Math.round).join(', ')} req/s (mean ${Math.round(mean(results.off))})`);
  console.log(
    `limit on (Redis): ${results.on.map(Math.round).join(', ')} req/s (mean ${Math.round(mean(results.on))})`,
  );
  console.log(`ratio on/off: ${(mean(results.on) / mean(results.off)).toFixed(3)}`);
  await on.close();
  await off.close();
  await pg.drop();
  dir.remove();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
