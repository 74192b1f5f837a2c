/**
 * Upgrades from an earlier release (issue 35 §4): the database and the embedded data folder that
 * release made and seeded (server/test/fixtures/upgrade/, made by make-fixture.mjs from the commit
 * named in seed.json) are opened by today's code; `migrate` (PostgreSQL) or the start
 * (embedded) brings them up to date, and every seeded row reads back through GraphQL: the
 * account, the project, both issues and their events, the resolution, the log, the feedback
 * linked to its event, the vitals, the release and the alert rule. The servers run the API role
 * only: a worker's retention purge would delete the fixture's events once they are old enough.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '@tracker/core/testing';
import type { Tracker } from '../src';
import { runCli } from '../src/cli';
import { createTestEnv, gqlOk, startTracker, type TestEnv } from './helpers';

const FIXTURES = join(__dirname, 'fixtures/upgrade');
interface Seeded {
  password: string;
  projectId: string;
  errors: string[];
  resolvedIssue: string;
}
const seed = JSON.parse(readFileSync(join(FIXTURES, 'seed.json'), 'utf8')) as {
  commit: string;
  email: string;
  madeAt: string;
  postgres: Seeded;
  embedded: Seeded;
};

const READ = `query($p: ID!, $from: String!, $to: String!) {
  vitalsByUrl(projectId: $p, filter: { from: $from, to: $to }) { url pageViews }
  project(id: $p) { name }
  issues(projectId: $p, first: 10) { totalCount nodes { id title status eventCount userCount
    events(first: 10) { nodes { eventId release environment tags { key value } } } } }
  logs(projectId: $p, first: 10) { nodes { level message } }
  feedback(projectId: $p, first: 10) { nodes { message email eventId } }
  releases(projectId: $p) { version environment }
  alertRules(projectId: $p) { kind channel { type url } }
}`;

async function readBack(url: string, seeded: Seeded) {
  const login = await gqlOk(url, `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`, {
    e: seed.email,
    p: seeded.password,
  });
  // The window around the day the fixture was made: the default is the last 7 days.
  const made = Date.parse(seed.madeAt);
  const range = { from: new Date(made - 86_400_000).toISOString(), to: new Date(made + 86_400_000).toISOString() };
  const d = await gqlOk(url, READ, { p: seeded.projectId, ...range }, login.login.token);
  assert.deepEqual(d.vitalsByUrl, [{ url: 'https://shop.example.com/checkout', pageViews: 1 }]);
  assert.equal(d.project.name, 'Shop');
  const byTitle = Object.fromEntries(d.issues.nodes.map((i: any) => [i.title, i]));
  const payment = byTitle['Error: Payment failed'];
  const cart = byTitle['Error: Cart is empty'];
  assert.ok(payment && cart, JSON.stringify(d.issues));
  assert.deepEqual([payment.eventCount, payment.status, payment.userCount], [2, 'OPEN', 1]);
  assert.deepEqual([cart.id, cart.eventCount, cart.status], [seeded.resolvedIssue, 1, 'RESOLVED']);
  const eventIds = [...payment.events.nodes, ...cart.events.nodes].map((e: any) => e.eventId).sort();
  assert.deepEqual(eventIds, [...seeded.errors].sort());
  const event = payment.events.nodes[0];
  assert.deepEqual([event.release, event.environment], ['shop@1.0.0', 'production']);
  assert.ok(event.tags.some((t: any) => t.key === 'route' && t.value === '/checkout'));
  assert.deepEqual(d.logs.nodes, [{ level: 'WARN', message: 'Price list is stale' }]);
  assert.deepEqual(d.feedback.nodes, [
    { message: 'The pay button did nothing', email: 'ada@example.com', eventId: seeded.errors[0] },
  ]);
  assert.deepEqual(d.releases, [{ version: 'shop@1.0.0', environment: 'production' }]);
  assert.deepEqual(d.alertRules, [
    { kind: 'NEW_ISSUE', channel: { type: 'WEBHOOK', url: 'https://hooks.example.com/tracker' } },
  ]);
}

describe(`upgrade from ${seed.commit.slice(0, 7)}`, () => {
  let pg: TestPostgres | undefined;
  let dir: TempDir | undefined;
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  after(async () => {
    await tracker?.close().catch(() => undefined);
    await env?.cleanup().catch(() => undefined);
    await pg?.drop().catch(() => undefined);
    dir?.remove();
  });

  test('PostgreSQL: migrate, then every seeded row reads back', { timeout: 300_000 }, async () => {
    pg = await createTestPostgres();
    execFileSync('psql', [pg.url, '-q', '-v', 'ON_ERROR_STOP=1', '-f', join(FIXTURES, 'postgres.sql')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    dir = createTempDir();
    const cliEnv = { DATABASE_URL: pg.url, TRACKER_DATA_DIR: dir.path };
    // Today's code refuses to serve the old schema until it is migrated.
    assert.match((await runCli(['org:set-plan', 'x', 'pro'], cliEnv)).out, /pending migrations/);
    const migrated = await runCli(['migrate'], cliEnv);
    assert.equal(migrated.code, 0, migrated.out);
    env = await createTestEnv('postgres+redis', { databaseUrl: pg.url });
    tracker = await startTracker(env, { roles: ['api'] }, { migrate: false });
    await readBack(tracker.url, seed.postgres);
    await tracker.close();
    tracker = undefined;
  });

  test(
    'embedded: the data folder of that build starts, migrated, and every seeded row reads back',
    { timeout: 300_000 },
    async () => {
      env = await createTestEnv('embedded');
      execFileSync('tar', ['-xzf', join(FIXTURES, 'embedded.tar.gz'), '-C', env.config.dataDir]);
      tracker = await startTracker(env);
      await readBack(tracker.url, seed.embedded);
    },
  );
});
