import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { ApolloServer } from '@apollo/server';
import { authenticateBearer, findKeyInfo, loadConfig, openDatabase, type Config, type Database } from '@tracker/core';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '@tracker/core/testing';
import Fastify from 'fastify';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { apiPlugin, createApollo } from '../src/api.plugin';
import { ADMIN_MUTATIONS, INSTANCE_ADMIN_FIELDS, SESSION_ONLY_MUTATIONS } from '../src/auth/scope-policy';
import { createContext, type Context } from '../src/context';
import { getSchema } from '../src/schema';

const SIGNUP = `mutation($e: String!, $p: String!, $o: String!) {
  signup(email: $e, password: $p, organizationName: $o) { token user { id email } organization { id slug } } }`;
const CREATE_TOKEN = `mutation($n: String!, $s: [ApiScope!]!) {
  createApiToken(name: $n, scopes: $s) { token apiToken { id name scopes prefix createdAt lastUsedAt revokedAt } } }`;
const CHANGE_PASSWORD = `mutation($c: String!, $n: String!, $r: Boolean) {
  changePassword(currentPassword: $c, newPassword: $n, revokeApiTokens: $r) { token user { email organizations { id } } organization { id } } }`;
const PASSWORD = 'correct horse battery';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A value of the argument's type that passes GraphQL validation, so the call reaches the resolvers. */
function sampleValue(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sampleValue(type.ofType);
  if (isListType(type)) return [sampleValue(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    for (const f of Object.values(type.getFields())) out[f.name] = sampleValue(f.type);
    return out;
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'ID':
        return '00000000-0000-4000-8000-000000000000';
      case 'Int':
      case 'Float':
        return 1;
      case 'Boolean':
        return false;
      default:
        return 'x';
    }
  }
  throw new Error(`no sample for ${String(type)}`);
}

/** `mutation($a: T!, …) { field(a: $a, …) { __typename } }` with sample variables, for any Mutation field. */
function sampleMutation(schema: GraphQLSchema, field: string): { source: string; variables: Record<string, unknown> } {
  const f = schema.getMutationType()!.getFields()[field];
  const defs = f.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const uses = f.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const variables = Object.fromEntries(f.args.map((a) => [a.name, sampleValue(a.type)]));
  const named = getNamedType(f.type);
  const selection = 'getFields' in named ? ' { __typename }' : '';
  const source = `mutation${defs ? `(${defs})` : ''} { ${field}${uses ? `(${uses})` : ''}${selection} }`;
  return { source, variables };
}

describe('accounts: passwords, sessions, API tokens and scopes', () => {
  let pg: TestPostgres;
  let db: Database;
  let schema: GraphQLSchema;
  let apollo: ApolloServer<Context>;
  const config = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });
  let seq = 0;

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

  async function run(source: string, variables: Record<string, unknown> = {}, token?: string) {
    const auth = token ? await authenticateBearer(db.ds, token) : null;
    const principal = auth?.principal ?? null;
    const authProblem = auth && !auth.principal ? auth.problem : null;
    const response = await apollo.executeOperation(
      { query: source, variables },
      { contextValue: createContext({ ds: db.ds, config }, principal, { authProblem }) },
    );
    assert.equal(response.body.kind, 'single');
    return JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
  }

  const ok = (r: any) => {
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    return r.data;
  };
  const code = (r: any) => r.errors?.[0]?.extensions?.code;

  async function signup(name = `user${++seq}`) {
    const email = `${name}@example.com`;
    const d = ok(await run(SIGNUP, { e: email, p: PASSWORD, o: `Org ${name}` }));
    return {
      email,
      token: d.signup.token as string,
      userId: d.signup.user.id as string,
      orgId: d.signup.organization.id as string,
    };
  }

  async function apiToken(session: string, scopes: string[], name = 'ci') {
    const d = ok(await run(CREATE_TOKEN, { n: name, s: scopes.map((s) => s.toUpperCase()) }, session));
    return d.createApiToken as { token: string; apiToken: { id: string; prefix: string; scopes: string[] } };
  }

  async function login(email: string, password: string) {
    return run(`mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`, {
      e: email,
      p: password,
    });
  }

  const rowCounts = async () =>
    (
      await db.ds.query(
        `SELECT (SELECT count(*) FROM projects) p, (SELECT count(*) FROM project_keys WHERE disabled_at IS NULL) k,
                (SELECT count(*) FROM api_tokens WHERE revoked_at IS NULL) t, (SELECT count(*) FROM memberships) m,
                (SELECT count(*) FROM invitations) i, (SELECT count(*) FROM sessions WHERE revoked_at IS NULL) s,
                (SELECT string_agg(password_hash, ',' ORDER BY id) FROM users) h`,
      )
    )[0];

  test('a wrong password is refused: login UNAUTHENTICATED, changePassword BAD_USER_INPUT, nothing changes', async () => {
    const u = await signup();
    const wrong = await login(u.email, 'not the password');
    assert.equal(code(wrong), 'UNAUTHENTICATED');
    assert.equal(wrong.errors[0].message, 'Wrong email or password');
    const before = await rowCounts();
    const r = await run(CHANGE_PASSWORD, { c: 'not the password', n: 'a brand new password' }, u.token);
    assert.equal(code(r), 'BAD_USER_INPUT');
    assert.match(r.errors[0].message, /^currentPassword: wrong password/);
    assert.deepEqual(await rowCounts(), before);
    ok(await run(`{ viewer { id } }`, {}, u.token));
    const short = await run(CHANGE_PASSWORD, { c: PASSWORD, n: 'short' }, u.token);
    assert.match(short.errors[0].message, /^newPassword: must be at least 8/);
  });

  test('changePassword signs out every session, the current one too, and returns a fresh one', async () => {
    const u = await signup();
    const other = ok(await login(u.email, PASSWORD)).login.token as string;
    const tok = await apiToken(u.token, ['read']);
    const d = ok(await run(CHANGE_PASSWORD, { c: PASSWORD, n: 'a brand new password' }, u.token));
    assert.match(d.changePassword.token, /^ets_/);
    assert.equal(d.changePassword.user.email, u.email);
    assert.equal(d.changePassword.organization.id, u.orgId);
    // Both old sessions are dead, with a message saying why.
    for (const old of [u.token, other]) {
      assert.equal(ok(await run(`{ viewer { id } }`, {}, old)).viewer, null);
      const denied = await run(`{ apiTokens { id } }`, {}, old);
      assert.equal(code(denied), 'UNAUTHENTICATED');
      assert.match(denied.errors[0].message, /signed out/);
    }
    assert.equal(ok(await run(`{ viewer { email } }`, {}, d.changePassword.token)).viewer.email, u.email);
    // The old password no longer works, the new one does.
    assert.equal(code(await login(u.email, PASSWORD)), 'UNAUTHENTICATED');
    ok(await login(u.email, 'a brand new password'));
    // API tokens keep working by default…
    assert.equal(ok(await run(`{ viewer { email } }`, {}, tok.token)).viewer.email, u.email);
    // …and go too when asked.
    const again = ok(
      await run(CHANGE_PASSWORD, { c: 'a brand new password', n: 'third password!', r: true }, d.changePassword.token),
    );
    assert.equal(ok(await run(`{ viewer { id } }`, {}, tok.token)).viewer, null);
    ok(await run(`{ viewer { id } }`, {}, again.changePassword.token));
  });

  test('an expired session is refused with UNAUTHENTICATED saying it expired', async () => {
    const u = await signup();
    await db.ds.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [
      sha256(u.token),
    ]);
    const r = await run(`query($o: ID!) { members(organizationId: $o) { email } }`, { o: u.orgId }, u.token);
    assert.equal(code(r), 'UNAUTHENTICATED');
    assert.match(r.errors[0].message, /expired/);
    assert.equal(ok(await run(`{ viewer { id } }`, {}, u.token)).viewer, null);
  });

  test('logout revokes the session; an API token cannot log out', async () => {
    const u = await signup();
    const tok = await apiToken(u.token, ['admin']);
    assert.equal(code(await run(`mutation { logout }`, {}, tok.token)), 'FORBIDDEN');
    ok(await run(`mutation { logout }`, {}, u.token));
    assert.match((await run(`{ apiTokens { id } }`, {}, u.token)).errors[0].message, /signed out/);
  });

  test('API tokens: shown once, stored hashed, listed by prefix, revocable; a revoked token is refused', async () => {
    const u = await signup();
    const created = await apiToken(u.token, ['write', 'read', 'write'], ' deploy bot ');
    assert.match(created.token, /^eta_[A-Za-z0-9_-]{43}$/);
    assert.equal(created.apiToken.prefix, created.token.slice(0, 12));
    assert.deepEqual(created.apiToken.scopes, ['READ', 'WRITE']);
    // Only the hash is stored.
    const rows = await db.ds.query(`SELECT * FROM api_tokens WHERE id = $1`, [created.apiToken.id]);
    assert.equal(rows[0].token_hash, sha256(created.token));
    assert.ok(!JSON.stringify(rows).includes(created.token));
    // Listed without the secret.
    const list = ok(await run(`{ apiTokens { id name prefix scopes lastUsedAt revokedAt } }`, {}, u.token)).apiTokens;
    assert.deepEqual(list, [
      {
        id: created.apiToken.id,
        name: 'deploy bot',
        prefix: created.apiToken.prefix,
        scopes: ['READ', 'WRITE'],
        lastUsedAt: null,
        revokedAt: null,
      },
    ]);
    assert.ok(!JSON.stringify(list).includes(created.token));
    // It works as its user, and records its use.
    assert.equal(
      ok(await run(`{ viewer { email organizations { id } } }`, {}, created.token)).viewer.organizations[0].id,
      u.orgId,
    );
    const used = ok(await run(`{ apiTokens { lastUsedAt } }`, {}, u.token)).apiTokens[0];
    assert.ok(used.lastUsedAt);
    // Bad input.
    assert.equal(code(await run(CREATE_TOKEN, { n: 'x', s: [] }, u.token)), 'BAD_USER_INPUT');
    assert.equal(code(await run(CREATE_TOKEN, { n: '  ', s: ['READ'] }, u.token)), 'BAD_USER_INPUT');
    // Revoke: refused from the next request on, with the reason.
    const revoked = ok(
      await run(`mutation($id: ID!) { revokeApiToken(id: $id) { revokedAt } }`, { id: created.apiToken.id }, u.token),
    );
    assert.ok(revoked.revokeApiToken.revokedAt);
    const refused = await run(
      `query($o: ID!) { members(organizationId: $o) { email } }`,
      { o: u.orgId },
      created.token,
    );
    assert.equal(code(refused), 'UNAUTHENTICATED');
    assert.equal(refused.errors[0].message, 'This API token was revoked');
    // Someone else's token id answers like a missing one.
    const stranger = await signup();
    const theirs = await apiToken(stranger.token, ['read']);
    const other = await run(
      `mutation($id: ID!) { revokeApiToken(id: $id) { id } }`,
      { id: theirs.apiToken.id },
      u.token,
    );
    const missing = await run(
      `mutation($id: ID!) { revokeApiToken(id: $id) { id } }`,
      { id: '00000000-0000-4000-8000-000000000000' },
      u.token,
    );
    assert.equal(code(other), 'NOT_FOUND');
    assert.deepEqual(other.errors[0].message, missing.errors[0].message);
    ok(await run(`{ viewer { id } }`, {}, theirs.token));
  });

  test('a read token can query but every mutation of the schema is FORBIDDEN, and nothing changes', async () => {
    const u = await signup();
    const read = await apiToken(u.token, ['read']);
    ok(
      await run(
        `query($o: ID!) { members(organizationId: $o) { email } organization(id: $o) { name } apiTokens { id } }`,
        { o: u.orgId },
        read.token,
      ),
    );
    const mutations = Object.keys(schema.getMutationType()!.getFields());
    assert.ok(mutations.length > 20);
    const before = await rowCounts();
    for (const field of mutations) {
      const { source, variables } = sampleMutation(schema, field);
      const r = await run(source, variables, read.token);
      assert.equal(code(r), 'FORBIDDEN', `${field}: ${JSON.stringify(r.errors ?? r.data)}`);
      assert.match(
        r.errors[0].message,
        SESSION_ONLY_MUTATIONS.has(field) || INSTANCE_ADMIN_FIELDS.has(field)
          ? /needs a signed-in session/
          : /scope read: .* needs (write|admin)/,
        field,
      );
    }
    assert.deepEqual(await rowCounts(), before);
  });

  test('a write token mutates but cannot run admin mutations; an admin token can; session-only stays session-only', async () => {
    const u = await signup();
    const write = await apiToken(u.token, ['write']);
    const admin = await apiToken(u.token, ['admin']);
    const before = await rowCounts();
    for (const field of ADMIN_MUTATIONS) {
      if (!schema.getMutationType()!.getFields()[field]) continue;
      const { source, variables } = sampleMutation(schema, field);
      const r = await run(source, variables, write.token);
      assert.equal(code(r), 'FORBIDDEN', field);
    }
    for (const field of SESSION_ONLY_MUTATIONS) {
      const { source, variables } = sampleMutation(schema, field);
      assert.equal(code(await run(source, variables, admin.token)), 'FORBIDDEN', field);
    }
    assert.deepEqual(await rowCounts(), before);
    // write: creates and renames projects (roles still apply: the user owns the org).
    const p = ok(
      await run(
        `mutation($o: ID!) { createProject(organizationId: $o, name: "api") { id } }`,
        { o: u.orgId },
        write.token,
      ),
    );
    const id = p.createProject.id;
    ok(await run(`mutation($id: ID!) { renameProject(id: $id, name: "api 2") { name } }`, { id }, write.token));
    assert.equal(code(await run(`mutation($id: ID!) { deleteProject(id: $id) }`, { id }, write.token)), 'FORBIDDEN');
    assert.equal(
      ok(await run(`mutation($id: ID!) { deleteProject(id: $id) }`, { id }, admin.token)).deleteProject,
      true,
    );
    assert.equal(ok(await run(`query($id: ID!) { project(id: $id) { id } }`, { id }, u.token)).project, null);
  });

  test('every ADMIN_MUTATIONS and SESSION_ONLY_MUTATIONS entry names a real mutation', () => {
    const fields = schema.getMutationType()!.getFields();
    for (const name of [...ADMIN_MUTATIONS, ...SESSION_ONLY_MUTATIONS])
      assert.ok(fields[name], `${name} is not a mutation`);
  });

  test('the request log carries the API token id, never the secret', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream } });
    const api = await apiPlugin(app, { ds: db.ds, config });
    try {
      const u = await signup();
      const tok = await apiToken(u.token, ['read']);
      const res = await app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tok.token}` },
        payload: { query: '{ viewer { email } }' },
      });
      assert.equal(res.json().data.viewer.email, u.email);
      const completed = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');
      assert.equal(completed.length, 1);
      assert.equal(completed[0].apiTokenId, tok.apiToken.id);
      assert.ok(!lines.join('\n').includes(tok.token), 'the secret is never logged');
      assert.ok(!lines.join('\n').includes(tok.token.slice(4)), 'nor its body');
    } finally {
      await api.stop();
      await app.close();
    }
  });

  test('projects: rename and delete are for owners and admins; keys are rotated and disabled', async () => {
    const owner = await signup();
    const p = ok(
      await run(
        `mutation($o: ID!) { createProject(organizationId: $o, name: "web") { id dsn } }`,
        { o: owner.orgId },
        owner.token,
      ),
    ).createProject;
    // A plain member (added directly) sees the project and its keys but cannot manage them.
    const member = await signup();
    await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
      owner.orgId,
      member.userId,
    ]);
    const keys = ok(
      await run(
        `query($p: ID!) { projectKeys(projectId: $p) { id publicKey dsn enabled } }`,
        { p: p.id },
        member.token,
      ),
    ).projectKeys;
    assert.equal(keys.length, 1);
    assert.equal(keys[0].dsn, p.dsn);
    for (const [q, v] of [
      [`mutation($id: ID!) { renameProject(id: $id, name: "x") { id } }`, { id: p.id }],
      [`mutation($id: ID!) { deleteProject(id: $id) }`, { id: p.id }],
      [`mutation($p: ID!) { rotateProjectKey(projectId: $p) { id } }`, { p: p.id }],
      [`mutation($p: ID!, $k: ID!) { disableProjectKey(projectId: $p, keyId: $k) { id } }`, { p: p.id, k: keys[0].id }],
    ] as const) {
      assert.equal(code(await run(q, v, member.token)), 'FORBIDDEN', q);
    }
    const renamed = ok(
      await run(`mutation($id: ID!) { renameProject(id: $id, name: " Web App ") { name } }`, { id: p.id }, owner.token),
    );
    assert.equal(renamed.renameProject.name, 'Web App');
    assert.equal(
      code(await run(`mutation($id: ID!) { renameProject(id: $id, name: " ") { name } }`, { id: p.id }, owner.token)),
      'BAD_USER_INPUT',
    );

    // Rotation: a new key becomes the DSN; the old one is disabled at once (ingest: after its cache TTL).
    const oldKey = keys[0].publicKey;
    assert.ok(await findKeyInfo(db.ds, oldKey));
    const rotated = ok(
      await run(
        `mutation($p: ID!) { rotateProjectKey(projectId: $p) { id publicKey dsn enabled } }`,
        { p: p.id },
        owner.token,
      ),
    ).rotateProjectKey;
    assert.notEqual(rotated.publicKey, oldKey);
    assert.equal(await findKeyInfo(db.ds, oldKey), null);
    assert.equal(
      ok(await run(`query($id: ID!) { project(id: $id) { dsn } }`, { id: p.id }, owner.token)).project.dsn,
      rotated.dsn,
    );
    // keepOldKeys: both work until the old one is disabled.
    const next = ok(
      await run(
        `mutation($p: ID!) { rotateProjectKey(projectId: $p, keepOldKeys: true) { id publicKey dsn } }`,
        { p: p.id },
        owner.token,
      ),
    ).rotateProjectKey;
    assert.ok(await findKeyInfo(db.ds, rotated.publicKey));
    assert.ok(await findKeyInfo(db.ds, next.publicKey));
    assert.equal(
      ok(await run(`query($id: ID!) { project(id: $id) { dsn } }`, { id: p.id }, owner.token)).project.dsn,
      next.dsn,
    );
    const disabled = ok(
      await run(
        `mutation($p: ID!, $k: ID!) { disableProjectKey(projectId: $p, keyId: $k) { enabled disabledAt } }`,
        { p: p.id, k: rotated.id },
        owner.token,
      ),
    ).disableProjectKey;
    assert.equal(disabled.enabled, false);
    assert.equal(await findKeyInfo(db.ds, rotated.publicKey), null);
    const list = ok(
      await run(`query($p: ID!) { projectKeys(projectId: $p) { id enabled } }`, { p: p.id }, owner.token),
    ).projectKeys;
    assert.deepEqual(
      list.map((k: any) => k.enabled),
      [true, false, false],
    );
    // A key of another project answers like a missing key.
    const other = ok(
      await run(
        `mutation($o: ID!) { createProject(organizationId: $o, name: "other") { id } }`,
        { o: owner.orgId },
        owner.token,
      ),
    ).createProject;
    const otherKey = ok(await run(`query($p: ID!) { projectKeys(projectId: $p) { id } }`, { p: other.id }, owner.token))
      .projectKeys[0].id;
    const cross = await run(
      `mutation($p: ID!, $k: ID!) { disableProjectKey(projectId: $p, keyId: $k) { id } }`,
      { p: p.id, k: otherKey },
      owner.token,
    );
    assert.equal(code(cross), 'NOT_FOUND');
    assert.equal(cross.errors[0].message, 'Key not found');
    // Delete: gone for everyone, with its keys.
    assert.equal(
      ok(await run(`mutation($id: ID!) { deleteProject(id: $id) }`, { id: p.id }, owner.token)).deleteProject,
      true,
    );
    assert.equal(await findKeyInfo(db.ds, next.publicKey), null);
    assert.equal(
      code(await run(`mutation($id: ID!) { deleteProject(id: $id) }`, { id: p.id }, owner.token)),
      'NOT_FOUND',
    );
  });
});

describe('accounts on embedded PGlite', () => {
  let dir: TempDir;
  let db: Database;
  let config: Config;

  before(async () => {
    dir = createTempDir();
    config = loadConfig({ TRACKER_DATA_DIR: dir.path });
    db = await openDatabase(config, { migrate: true });
  });
  after(async () => {
    await db.close();
    dir.remove();
  });

  test('the accounts migration runs and tokens work the same', async () => {
    const apollo = await createApollo();
    try {
      const exec = async (query: string, variables: Record<string, unknown>, token?: string) => {
        const auth = token ? await authenticateBearer(db.ds, token) : null;
        const r = await apollo.executeOperation(
          { query, variables },
          { contextValue: createContext({ ds: db.ds, config }, auth?.principal ?? null) },
        );
        return JSON.parse(JSON.stringify((r.body as any).singleResult));
      };
      const s = await exec(SIGNUP, { e: 'pg@example.com', p: PASSWORD, o: 'Lite' });
      const t = await exec(CREATE_TOKEN, { n: 'ci', s: ['READ'] }, s.data.signup.token);
      assert.equal(t.errors, undefined);
      const v = await exec(`{ viewer { email } }`, {}, t.data.createApiToken.token);
      assert.equal(v.data.viewer.email, 'pg@example.com');
      const m = await exec(
        `mutation($o: ID!) { createProject(organizationId: $o, name: "x") { id } }`,
        { o: s.data.signup.organization.id },
        t.data.createApiToken.token,
      );
      assert.equal(m.errors[0].extensions.code, 'FORBIDDEN');
    } finally {
      await apollo.stop();
    }
  });
});
