/**
 * GraphQL hardening over real HTTP: depth and cost limits refused before anything executes,
 * error codes, CSRF prevention, and introspection switched by TRACKER_GRAPHQL_INTROSPECTION.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadConfig, openDatabase, type Config, type Database } from '@tracker/core';
import { createTestPostgres, type TestPostgres } from '@tracker/core/testing';
import Fastify from 'fastify';
import { getIntrospectionQuery } from 'graphql';
import { apiPlugin } from '../src/api.plugin';
import { MAX_QUERY_COST, MAX_QUERY_DEPTH } from '../src/limits/query-limits.plugin';

interface Server {
  url: string;
  stop(): Promise<void>;
}

async function startApi(db: Database, config: Config): Promise<Server> {
  const app = Fastify({ logger: false });
  const api = await apiPlugin(app, { ds: db.ds, config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    async stop() {
      await api.stop();
      await app.close();
    },
  };
}

/** `issue { feedback { issue { feedback … } } } }`: Feedback.issue and Issue.feedback make a cycle. */
function nested(levels: number, leaf = 'id'): string {
  let s = leaf;
  // Built from the inside out; the outermost level (i = 0) is `feedback`, a field of Issue.
  for (let i = levels - 1; i >= 0; i--) s = i % 2 === 0 ? `feedback { ${s} }` : `issue { ${s} }`;
  return s;
}

describe('GraphQL hardening (HTTP)', () => {
  let pg: TestPostgres;
  let db: Database;
  let server: Server;
  let closed: Server;
  let token: string;
  let project: string;
  let issue: string;

  async function post(url: string, query: string, variables: Record<string, unknown> = {}, bearer = token) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json()) as any };
  }
  const issueStatus = async () => (await db.ds.query(`SELECT status FROM issues WHERE id = $1`, [issue]))[0].status;

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    const base = { TRACKER_PUBLIC_URL: 'https://tracker.example.com' };
    server = await startApi(db, loadConfig(base));
    closed = await startApi(db, loadConfig({ ...base, TRACKER_GRAPHQL_INTROSPECTION: '0' }));
    const s = await post(
      server.url,
      `mutation { signup(email: "h@example.com", password: "long enough pw", organizationName: "H") { token organization { id } } }`,
      {},
      '',
    );
    token = s.body.data.signup.token;
    const p = await post(server.url, `mutation($o: ID!) { createProject(organizationId: $o, name: "W") { id } }`, {
      o: s.body.data.signup.organization.id,
    });
    project = p.body.data.createProject.id;
    [{ id: issue }] = await db.ds.query(
      `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
       VALUES ($1, 'fp', 'TypeError: x', 'TypeError', 'error', now(), now(), 1) RETURNING id`,
      [project],
    );
  });
  after(async () => {
    await server.stop();
    await closed.stop();
    await db.close();
    await pg.drop();
  });

  test(`a query nested deeper than ${MAX_QUERY_DEPTH} is refused with BAD_USER_INPUT before it runs`, async () => {
    // resolveIssue (1) + 9 levels + id (1) = depth 11; the mutation must not have resolved the issue.
    const deep = await post(server.url, `mutation($id: ID!) { resolveIssue(id: $id) { ${nested(9)} } }`, { id: issue });
    assert.equal(deep.status, 400);
    assert.equal(deep.body.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.equal(deep.body.errors[0].message, 'Query depth 11 exceeds the limit of 10: ask for less nesting');
    assert.equal(deep.body.data, undefined);
    assert.equal(await issueStatus(), 'open');
    // Through a fragment, the same.
    const viaFragment = await post(
      server.url,
      `query($id: ID!) { issue(id: $id) { ...F } } fragment F on Issue { ${nested(9)} }`,
      { id: issue },
    );
    assert.match(viaFragment.body.errors[0].message, /^Query depth 11 exceeds/);
    // At the limit it runs.
    const atLimit = await post(server.url, `query($id: ID!) { issue(id: $id) { ${nested(8)} } }`, { id: issue });
    assert.equal(atLimit.status, 200);
    assert.equal(atLimit.body.errors, undefined);
  });

  test(`a query estimated above ${MAX_QUERY_COST} is refused with BAD_USER_INPUT before it runs`, async () => {
    // Aliases multiply: 35 log pages of 100 rows and 8 fields each = 35 × 901.
    const page = `logs(projectId: $p, first: 100) { nodes { id level message environment release timestamp receivedAt tags } }`;
    const many = Array.from({ length: 35 }, (_, i) => `a${i}: ${page}`).join('\n');
    const refused = await post(server.url, `query($p: ID!) { ${many} }`, { p: project });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.match(refused.body.errors[0].message, /^Query cost 31535 exceeds the limit of 30000: ask for fewer rows/);
    // The cost follows `first`, including from variables: 35 pages of 10 pass.
    const small = await post(server.url, `query($p: ID!, $n: Int!) { ${many.replaceAll('first: 100', 'first: $n')} }`, {
      p: project,
      n: 10,
    });
    assert.equal(small.body.errors, undefined);
    // A mutation over the limit is not run at all.
    const costly = await post(
      server.url,
      `mutation($id: ID!) { a: resolveIssue(id: $id) { ${nested(7)} } b: resolveIssue(id: $id) { ${nested(7)} } c: resolveIssue(id: $id) { ${nested(7)} } }`,
      { id: issue },
    );
    assert.equal(costly.body.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.match(costly.body.errors[0].message, /^Query cost \d+ exceeds/);
    assert.equal(await issueStatus(), 'open');
  });

  test('a document longer than 16 KiB is refused before it is parsed (issue 28)', async () => {
    // 7,000 aliases, 98 KB: it used to reach the parser's 20,000-token limit; the byte limit comes first now.
    const huge = await post(server.url, `{ ${'a: __typename '.repeat(7000)}}`);
    assert.equal(huge.status, 400);
    assert.equal(huge.body.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.match(huge.body.errors[0].message, /^Query text is 98003 bytes; the limit is 16384/);
  });

  test('a batch (an array of operations) is refused: one operation per request', async () => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify([{ query: '{ viewer { id } }' }, { query: '{ viewer { id } }' }]),
    });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /batch/i);
  });

  test('a full page of 100 issues with their relations is within the limits', async () => {
    const r = await post(
      server.url,
      `query($p: ID!) { issues(projectId: $p, first: 100) {
        totalCount pageInfo { hasNextPage endCursor }
        nodes { id title type culprit status level isRegression eventCount userCount firstSeen lastSeen
          resolvedInRelease { version } releases { version environment }
          latestEvent { message frames { filename function lineno colno inApp minified { filename lineno colno } context { pre line post } } }
          feedback { message email event { id } } }
      } }`,
      { p: project },
    );
    assert.equal(r.body.errors, undefined, JSON.stringify(r.body.errors));
  });

  test('errors carry extensions.code: UNAUTHENTICATED, NOT_FOUND, BAD_USER_INPUT, FORBIDDEN, PLAN_REQUIRED', async () => {
    const logs = `query($p: ID!, $n: Int) { logs(projectId: $p, first: $n) { nodes { id } } }`;
    const code = (r: { body: any }) => r.body.errors?.[0]?.extensions?.code;
    assert.equal(code(await post(server.url, logs, { p: project }, '')), 'UNAUTHENTICATED');
    assert.equal(code(await post(server.url, logs, { p: project }, 'ets_made_up')), 'UNAUTHENTICATED');
    assert.equal(code(await post(server.url, logs, { p: randomUUID() })), 'NOT_FOUND');
    assert.equal(code(await post(server.url, logs, { p: project, n: 500 })), 'BAD_USER_INPUT');
    // The free plan has no release health.
    assert.equal(
      code(
        await post(server.url, `mutation($p: ID!) { markRelease(projectId: $p, version: "1.0") { version } }`, {
          p: project,
        }),
      ),
      'PLAN_REQUIRED',
    );
    // A read-only API token cannot write.
    const t = await post(server.url, `mutation { createApiToken(name: "ro", scopes: [READ]) { token } }`);
    const ro = t.body.data.createApiToken.token;
    assert.equal(
      code(await post(server.url, `mutation($id: ID!) { resolveIssue(id: $id) { id } }`, { id: issue }, ro)),
      'FORBIDDEN',
    );
    assert.equal(code(await post(server.url, logs, { p: project }, ro)), undefined);
  });

  test('CSRF prevention: a simple GET or form post without a preflight header is refused', async () => {
    const q = encodeURIComponent(`{ logs(projectId: "${project}") { nodes { id } } }`);
    const get = await fetch(`${server.url}?query=${q}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(get.status, 400);
    assert.match(await get.text(), /CSRF/);
    const withHeader = await fetch(`${server.url}?query=${q}`, {
      headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' },
    });
    assert.equal(withHeader.status, 200);
    assert.deepEqual(((await withHeader.json()) as any).data.logs.nodes, []);
    // What an HTML form (or a no-cors fetch) can send: text/plain, urlencoded, multipart.
    const body = JSON.stringify({ query: `mutation { resolveIssue(id: "${issue}") { id } }` });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': type, authorization: `Bearer ${token}` },
        body,
      });
      assert.ok(res.status >= 400 && res.status < 500, `${type}: ${res.status}`);
      assert.doesNotMatch(await res.text(), /"data"/);
    }
    assert.equal(await issueStatus(), 'open');
  });

  test('introspection answers by default and is refused with TRACKER_GRAPHQL_INTROSPECTION=0', async () => {
    const open = await post(server.url, getIntrospectionQuery());
    assert.equal(open.body.errors, undefined, 'the full introspection query passes the limits');
    assert.ok(open.body.data.__schema.types.some((t: any) => t.name === 'VitalsSummary'));
    const shut = await post(closed.url, `{ __schema { types { name } } }`);
    assert.equal(shut.status, 400);
    assert.equal(shut.body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    assert.match(shut.body.errors[0].message, /introspection is not allowed/i);
    assert.equal((await post(closed.url, `{ __type(name: "Issue") { name } }`)).status, 400);
    // Everything else still works there.
    const normal = await post(closed.url, `query($p: ID!) { logs(projectId: $p) { nodes { id } } }`, { p: project });
    assert.equal(normal.body.errors, undefined);
    assert.throws(() => loadConfig({ TRACKER_GRAPHQL_INTROSPECTION: 'off' }), /TRACKER_GRAPHQL_INTROSPECTION/);
  });
});
