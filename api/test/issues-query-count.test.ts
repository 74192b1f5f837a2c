import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerRelease } from '@tracker/core';
import type { Logger } from 'typeorm';
import { createIssueFixture, HOUR_MS, type IssueFixture } from './issue-fixtures';

/** What the dashboard's issue list asks for each row. */
const PAGE = `query($p: ID!, $first: Int!) { issues(projectId: $p, first: $first, environment: "production") {
  totalCount pageInfo { hasNextPage endCursor }
  nodes {
    id title culprit type status level isRegression eventCount userCount firstSeen lastSeen
    resolvedInRelease { version }
    releases { version environment }
    environments { environment }
    series(hours: 24) { ts count }
    latestEvent { id message frames { filename function lineno colno } }
    feedback { message }
  }
} }`;

describe('SQL statements per issues page (DataLoader)', () => {
  let f: IssueFixture;
  let owner: Awaited<ReturnType<IssueFixture['account']>>;

  before(async () => {
    f = await createIssueFixture();
    owner = await f.account('pro');
    await registerRelease(f.db.ds, { projectId: owner.projectId, version: '3.0' });
    const now = Date.now();
    const events = [];
    for (let i = 0; i < 120; i++) {
      for (let j = 0; j < 2; j++) {
        events.push({
          fingerprint: [`issue-${i}`],
          message: `failure ${i}`,
          release: i % 2 ? '3.0' : undefined,
          user: { id: `user-${i % 7}` },
          tags: { shard: String(i % 3) },
          stack: `Error: failure ${i}\n    at f${i} (https://app.example.com/app.js:${i + 1}:10)`,
          at: new Date(now - (i * 60 + j) * 60_000 - HOUR_MS / 2),
        });
      }
    }
    await f.ingest(owner.projectId, events);
    const ids: Array<{ id: string }> = await f.db.ds.query(
      'SELECT id FROM issues WHERE project_id = $1 ORDER BY last_seen DESC LIMIT 30',
      [owner.projectId],
    );
    await f.ok(
      `mutation($ids: [ID!]!) { resolveIssues(ids: $ids) { id } }`,
      { ids: ids.map((r) => r.id) },
      owner.token,
    );
    await f.db.ds.query(
      `INSERT INTO feedback (project_id, id, message, email, event_id, issue_id, received_at)
       SELECT $1, gen_random_uuid(), 'feedback', NULL, NULL, id, now() FROM issues WHERE project_id = $1 LIMIT 40`,
      [owner.projectId],
    );
  });
  after(() => f.close());

  async function statementsFor(first: number): Promise<{ count: number; rows: number }> {
    let rows = 0;
    const count = await countStatements(f, owner.token, async () => {
      const data = await f.ok(PAGE, { p: owner.projectId, first }, owner.token);
      rows = data.issues.nodes.length;
    });
    return { count, rows };
  }

  test('a 100-issue page costs the same small number of statements as a 10-issue page', async (t) => {
    const small = await statementsFor(10);
    const large = await statementsFor(100);
    assert.equal(small.rows, 10);
    assert.equal(large.rows, 100);
    // Authentication 1 (session, user and the two-factor requirement in one statement; it was 3,
    // 11 in all, before 2026-11-28), project access 1, page + count 1, and one each for
    // resolvedInRelease, releases, environments, series, latestEvent, feedback.
    // The lower bound proves the counting itself works.
    t.diagnostic(`statements: ${small.count} for 10 rows, ${large.count} for 100 rows`);
    assert.ok(large.count >= 8 && large.count <= 9, `a 100-issue page took ${large.count} statements`);
    assert.equal(large.count, small.count, 'statements grow with the page size');
  });
});

describe('SQL statements per alert rules list (DataLoader)', () => {
  let f: IssueFixture;
  let owner: Awaited<ReturnType<IssueFixture['account']>>;
  const RULES = `query($p: ID!) { alertRules(projectId: $p) { id failing recentFailures } }`;

  before(async () => {
    f = await createIssueFixture();
    owner = await f.account('pro');
  });
  after(() => f.close());

  async function addRule(): Promise<void> {
    await f.ok(
      `mutation($p: ID!) { createAlertRule(projectId: $p, kind: NEW_ISSUE, channel: { type: WEBHOOK, url: "https://hooks.example.com/x" }) { id } }`,
      { p: owner.projectId },
      owner.token,
    );
  }

  test("the rules' delivery warnings cost one statement whatever the number of rules", async (t) => {
    await addRule();
    const one = await countStatements(f, owner.token, () => f.ok(RULES, { p: owner.projectId }, owner.token));
    for (let i = 0; i < 5; i++) await addRule();
    let listed = 0;
    const six = await countStatements(f, owner.token, async () => {
      listed = (await f.ok(RULES, { p: owner.projectId }, owner.token)).alertRules.length;
    });
    assert.equal(listed, 6);
    t.diagnostic(`statements: ${one} for 1 rule, ${six} for 6 rules`);
    assert.ok(one >= 3, `the counting works: ${one}`);
    assert.equal(six, one, 'statements grow with the number of rules');
  });
});

/** Statements `run` sends to PostgreSQL, counted at TypeORM's query runner (every path goes through it). */
async function countStatements(f: IssueFixture, token: string, run: () => Promise<unknown>): Promise<number> {
  const ds = f.db.ds as unknown as { logger: Logger };
  const original = ds.logger;
  let count = 0;
  const principalReady = await f.run(`{ __typename }`, {}, token); // warm the schema and auth path
  assert.equal(principalReady.errors, undefined);
  ds.logger = new Proxy(original, {
    get(target, prop, receiver) {
      if (prop === 'logQuery') {
        return (...args: Parameters<Logger['logQuery']>) => {
          count += 1;
          return target.logQuery(...args);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  try {
    await run();
    return count;
  } finally {
    ds.logger = original;
  }
}
