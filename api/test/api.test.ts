import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { authenticate, loadConfig, openDatabase, type Database } from '@tracker/core';
import { createTestPostgres, type TestPostgres } from '@tracker/core/testing';
import type { ApolloServer } from '@apollo/server';
import { printSchema, type GraphQLSchema } from 'graphql';
import { createApollo } from '../src/api.plugin';
import { createContext, type Context } from '../src/context';
import { getSchema } from '../src/schema';

describe('GraphQL API', () => {
  let pg: TestPostgres;
  let db: Database;
  let schema: GraphQLSchema;
  let apollo: ApolloServer<Context>;
  const config = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    schema = await getSchema();
    apollo = await createApollo();
  });
  after(async () => {
    await apollo.stop();
    await db.close();
    await pg.drop();
  });

  async function run(source: string, variableValues: Record<string, unknown> = {}, token?: string) {
    const principal = token ? await authenticate(db.ds, token) : null;
    const response = await apollo.executeOperation(
      { query: source, variables: variableValues },
      { contextValue: createContext({ ds: db.ds, config }, principal) },
    );
    assert.equal(response.body.kind, 'single');
    // A JSON round trip, as over HTTP: what a client would see.
    return JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
  }

  const SIGNUP = `mutation($e: String!, $p: String!, $o: String!) { signup(email: $e, password: $p, organizationName: $o) { token user { id email } organization { id slug plan name } } }`;

  test('the committed schema.graphql matches the code (run `npm run schema -w @tracker/api`)', () => {
    const committed = readFileSync(join(__dirname, '..', 'schema.graphql'), 'utf8');
    assert.equal(committed, `${printSchema(schema)}\n`);
  });

  test('signup creates a user, an organization on the default plan, and a session', async () => {
    const r = await run(SIGNUP, { e: ' Dana@Example.COM ', p: 'long enough pw', o: 'Acme Corp' });
    assert.equal(r.errors, undefined);
    assert.equal(r.data.signup.user.email, 'dana@example.com');
    assert.equal(r.data.signup.organization.slug, 'acme-corp');
    assert.equal(r.data.signup.organization.plan, 'free');
    assert.match(r.data.signup.token, /^ets_/);
    const viewer = await run(`{ viewer { email organizations { name projects { id } } } }`, {}, r.data.signup.token);
    assert.deepEqual(viewer.data.viewer, { email: 'dana@example.com', organizations: [{ name: 'Acme Corp', projects: [] }] });
    const taken = await run(SIGNUP, { e: 'dana@example.com', p: 'long enough pw', o: 'Acme Corp' });
    // Without email: refused in words that name no account (decision 066).
    assert.equal(taken.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.doesNotMatch(taken.errors[0].message, /already exists/);
  });

  test('signup rejects a short password and a bad email with BAD_USER_INPUT naming the field', async () => {
    const short = await run(SIGNUP, { e: 'x@example.com', p: 'short', o: 'X' });
    assert.equal(short.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.match(short.errors[0].message, /^password:/);
    const bad = await run(SIGNUP, { e: 'not-an-email', p: 'long enough pw', o: 'X' });
    assert.match(bad.errors[0].message, /^email:/);
  });

  test('login: wrong password and unknown email look the same; right password gives a session', async () => {
    await run(SIGNUP, { e: 'lee@example.com', p: 'right password', o: 'Lee' });
    const wrong = await run(`mutation { login(email: "lee@example.com", password: "wrong password") { token } }`);
    const unknown = await run(`mutation { login(email: "nobody@example.com", password: "wrong password") { token } }`);
    assert.equal(wrong.errors[0].extensions.code, 'UNAUTHENTICATED');
    assert.equal(wrong.errors[0].message, unknown.errors[0].message);
    const ok = await run(`mutation { login(email: "LEE@example.com", password: "right password") { token organization { name } } }`);
    assert.equal(ok.data.login.organization.name, 'Lee');
  });

  test('logout revokes the session; a revoked or made-up token is signed out', async () => {
    const s = await run(SIGNUP, { e: 'kim@example.com', p: 'long enough pw', o: 'Kim' });
    const token = s.data.signup.token;
    assert.equal((await run(`mutation { logout }`, {}, token)).data.logout, true);
    assert.equal((await run(`{ viewer { id } }`, {}, token)).data.viewer, null);
    const denied = await run(`query($p: ID!) { issues(projectId: $p) { totalCount } }`, { p: '00000000-0000-4000-8000-000000000000' }, token);
    assert.equal(denied.errors[0].extensions.code, 'UNAUTHENTICATED');
    assert.equal((await run(`{ viewer { id } }`, {}, 'ets_madeup')).data.viewer, null);
  });

  test('createProject returns a DSN on the public URL; members of other orgs cannot create there', async () => {
    const s = await run(SIGNUP, { e: 'pat@example.com', p: 'long enough pw', o: 'Pat' });
    const p = await run(
      `mutation($o: ID!) { createProject(organizationId: $o, name: " Web ") { id name dsn organizationId } }`,
      { o: s.data.signup.organization.id },
      s.data.signup.token,
    );
    assert.equal(p.data.createProject.name, 'Web');
    assert.match(p.data.createProject.dsn, /^https:\/\/et_[0-9a-f]{32}@tracker\.example\.com\/[1-9]\d*$/);
    const empty = await run(`mutation($o: ID!) { createProject(organizationId: $o, name: "  ") { id } }`, { o: s.data.signup.organization.id }, s.data.signup.token);
    assert.equal(empty.errors[0].extensions.code, 'BAD_USER_INPUT');
    const first = await run(`query($p: ID!) { issues(projectId: $p, first: 101) { totalCount } }`, { p: p.data.createProject.id }, s.data.signup.token);
    assert.equal(first.errors[0].extensions.code, 'BAD_USER_INPUT');
  });
});
