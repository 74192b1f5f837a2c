/**
 * Issue 21: Tracker scaled out as docs/scaling.md describes it. Two ingest processes, two worker
 * processes and one api process, each a real `server/src/main.ts` with its own role, share one
 * PostgreSQL database and one Redis stream. Events go to both edges, and a share of them is sent
 * again to the other edge with the same event id (an SDK retrying through a load balancer).
 * Every accepted event must be stored exactly once, and the counts GraphQL shows must be the ones
 * the events imply.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Client } from 'pg';
import { createClient } from 'redis';
import { runCli } from '../src/cli';
import { startChildServer, type ChildServer } from './child-server';
import { childEnv, createTestEnv, gqlOk, ISSUES_QUERY, sendError, signUpWithProject, waitFor, type TestEnv } from './helpers';

const EVENTS = 1_200;
const RETRIED = 200;
const STACKS = 8;
const USERS = 37;

let env: TestEnv;
const children: ChildServer[] = [];

before(async () => {
  env = await createTestEnv('postgres+redis');
  // Processes with a subset of roles refuse pending migrations, as in production: a Job runs them.
  assert.equal((await runCli(['migrate'], childEnv(env))).code, 0);
});
after(async () => {
  await Promise.all(children.map((c) => c.kill()));
  await env?.cleanup();
});

const stack = (fn: string) =>
  `TypeError: Cannot read properties of undefined (reading 'id')\n    at ${fn} (https://app.example.com/static/js/main.js:12:17)\n    at HTMLButtonElement.onClick (https://app.example.com/static/js/main.js:88:5)`;

/** `tracker_events_stored_total` of one worker process. */
async function storedBy(worker: ChildServer): Promise<number> {
  const text = await (await fetch(`${worker.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('tracker_events_stored_total'));
  return Number(line?.split(' ').pop() ?? NaN);
}

test('two ingest, two worker and one api process: every accepted event stored once, counts exact', async () => {
  const start = (roles: string) =>
    startChildServer(childEnv(env), roles, { startTimeoutMs: 120_000 }).then((c) => (children.push(c), c));
  const [api, ingestA, ingestB, workerA, workerB] = await Promise.all([
    start('api'),
    start('ingest'),
    start('ingest'),
    start('worker'),
    start('worker'),
  ]);
  const edges = [ingestA, ingestB];
  const account = await signUpWithProject(api.url);

  const events = Array.from({ length: EVENTS }, (_, i) => ({
    eventId: randomUUID(),
    type: 'TypeError',
    message: `Cannot read properties of undefined (reading 'id') #${i}`,
    environment: 'production',
    stack: stack(`handler${i % STACKS}`),
    user: { id: `u${i % USERS}` },
  }));
  // The same event sent again to the other edge, as a retry after a lost answer would be.
  const sends = [
    ...events.map((e, i) => ({ edge: edges[i % 2], body: e })),
    ...events.slice(0, RETRIED).map((e, i) => ({ edge: edges[(i + 1) % 2], body: e })),
  ];
  const accepted = new Set<string>();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < sends.length) {
        const { edge, body } = sends[next++];
        const r = await sendError(edge.url, account.key, body);
        assert.equal(r.status, 202, JSON.stringify(r.body));
        accepted.add(body.eventId);
      }
    }),
  );
  assert.equal(accepted.size, EVENTS);

  // What the events imply: one issue per stack, each with the users its events carried.
  const usersPerIssue = new Map<string, Set<string>>();
  for (const e of events) {
    const users = usersPerIssue.get(e.stack) ?? new Set<string>();
    users.add(e.user.id);
    usersPerIssue.set(e.stack, users);
  }
  const expectedUsers = [...usersPerIssue.values()].reduce((n, s) => n + s.size, 0);

  const totals = await waitFor(
    'all accepted events counted',
    async () => {
      const issues = (await gqlOk(api.url, ISSUES_QUERY, { p: account.project.id, first: 100 }, account.token)).issues;
      const t = {
        issues: issues.totalCount as number,
        events: issues.nodes.reduce((n: number, i: any) => n + i.eventCount, 0) as number,
        users: issues.nodes.reduce((n: number, i: any) => n + i.userCount, 0) as number,
      };
      return t.events >= EVENTS ? t : undefined;
    },
    120_000,
  );
  assert.deepEqual(totals, { issues: STACKS, events: EVENTS, users: expectedUsers });

  // Stored once each, and nothing left in the stream or its pending list.
  const pg = new Client({ connectionString: env.config.databaseUrl });
  await pg.connect();
  try {
    const { rows } = await pg.query(
      'SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS distinct_ids FROM events WHERE project_id = $1',
      [account.project.id],
    );
    assert.deepEqual(rows[0], { n: EVENTS, distinct_ids: EVENTS });
    const stored = await pg.query('SELECT event_id FROM events WHERE project_id = $1', [account.project.id]);
    assert.ok(stored.rows.every((r) => accepted.has(r.event_id)));
  } finally {
    await pg.end();
  }
  const redis = createClient({ url: env.config.redisUrl });
  await redis.connect();
  try {
    const stream = `${env.config.redisPrefix}:jobs`;
    await waitFor('the stream drained', async () => (await redis.xPending(stream, 'workers')).pending === 0);
  } finally {
    await redis.close();
  }
  // Both workers took a share: the stream's consumer group spread the work.
  const shares = [await storedBy(workerA), await storedBy(workerB)];
  assert.ok(shares.every((n) => n > 0), `events stored per worker: ${shares.join(', ')}`);
  assert.equal(shares[0] + shares[1], EVENTS, `events stored per worker: ${shares.join(', ')}`);
});
