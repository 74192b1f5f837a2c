/**
 * The token-scope half of the permission matrix, generated from the schema: every root Query
 * and Mutation field is called by a session and by API tokens of scope `read`, `write` and
 * `admin`, with minimal arguments of the right types. A call is refused with FORBIDDEN exactly
 * when scope-policy.ts says the token may not run it (and then nothing changes); otherwise the
 * scope guard lets it through, whatever the resolver then answers about the made-up arguments.
 * A field added later is covered without touching this file. Role checks (owner, admin, member)
 * are core's access rule, walked with scopes in access-walk.test.ts and tested with each module.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { ApolloServer } from '@apollo/server';
import {
  authenticateBearer,
  createApiToken,
  hasScope,
  loadConfig,
  openDatabase,
  signUp,
  type ApiScope,
  type Database,
} from '@tracker/core';
import { createTestPostgres, type TestPostgres } from '@tracker/core/testing';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { createApollo } from '../src/api.plugin';
import { INSTANCE_ADMIN_FIELDS, requiredScope, SESSION_ONLY_MUTATIONS } from '../src/auth/scope-policy';
import { createContext, type Context } from '../src/context';
import { getSchema } from '../src/schema';

/** A literal of the input type: the smallest value GraphQL accepts (the resolver may still refuse it). */
function literalFor(type: GraphQLInputType): string {
  if (isNonNullType(type)) return literalFor(type.ofType);
  if (isListType(type)) return `[${literalFor(type.ofType as GraphQLInputType)}]`;
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const required = Object.values(type.getFields()).filter(
      (f) => isNonNullType(f.type) && f.defaultValue === undefined,
    );
    return `{ ${required.map((f) => `${f.name}: ${literalFor(f.type)}`).join(', ')} }`;
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'ID':
        return JSON.stringify(randomUUID());
      case 'Int':
        return '1';
      case 'Float':
        return '1.5';
      case 'Boolean':
        return 'true';
      case 'DateTimeISO':
      case 'DateTime':
        return JSON.stringify(new Date().toISOString());
      case 'JSONObject':
        return '{}';
      default:
        return '"x"';
    }
  }
  throw new Error(`no literal for ${String(type)}`);
}

function operationFor(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): string {
  const args = field.args
    .filter((a) => isNonNullType(a.type) && a.defaultValue === undefined)
    .map((a) => `${a.name}: ${literalFor(a.type)}`);
  const named = getNamedType(field.type);
  const selection = isObjectType(named) ? ' { __typename }' : isLeafType(named) ? '' : ' { __typename }';
  return `${kind} { ${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`;
}

const SCOPES: ApiScope[] = ['read', 'write', 'admin'];

describe('API token scopes (generated from the schema)', () => {
  let pg: TestPostgres;
  let db: Database;
  let apollo: ApolloServer<Context>;
  const config = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });
  let session: string;
  const tokens = {} as Record<ApiScope, string>;

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    apollo = await createApollo();
    const owner = await signUp(
      db.ds,
      { email: `scopes-${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Scopes' },
      'pro',
    );
    session = owner.token;
    for (const scope of SCOPES) {
      tokens[scope] = (await createApiToken(db.ds, owner.user.id, { name: scope, scopes: [scope] })).token;
    }
  });
  after(async () => {
    await apollo?.stop();
    await db?.close();
    await pg?.drop();
  });

  async function run(source: string, token: string) {
    const auth = await authenticateBearer(db.ds, token);
    const response = await apollo.executeOperation(
      { query: source },
      { contextValue: createContext({ ds: db.ds, config }, auth.principal) },
    );
    const result = (
      response.body as { singleResult: { errors?: Array<{ message: string; extensions?: { code?: string } }> } }
    ).singleResult;
    return result.errors ?? [];
  }

  const isScopeRefusal = (e: { message: string; extensions?: { code?: string } }) =>
    e.extensions?.code === 'FORBIDDEN' && /API token|needs a signed-in session/.test(e.message);

  test('every root field: refused exactly where the policy says, for each scope', async () => {
    const schema = await getSchema();
    const fields: Array<['query' | 'mutation', GraphQLField<unknown, unknown>]> = [
      ...Object.values(schema.getQueryType()!.getFields()).map((f) => ['query', f] as ['query', typeof f]),
      ...Object.values(schema.getMutationType()!.getFields()).map((f) => ['mutation', f] as ['mutation', typeof f]),
    ];
    assert.ok(fields.length > 40, `only ${fields.length} root fields found`);
    const mismatches: string[] = [];
    let refusals = 0;
    for (const [kind, field] of fields) {
      // Ending the session would sign the rest of the test out: logout is checked last.
      if (field.name === 'logout') continue;
      const source = operationFor(kind, field);
      const needed = requiredScope(kind, field.name);
      for (const scope of SCOPES) {
        const refused = (await run(source, tokens[scope])).some(isScopeRefusal);
        const expected =
          (kind === 'mutation' && SESSION_ONLY_MUTATIONS.has(field.name)) ||
          INSTANCE_ADMIN_FIELDS.has(field.name) ||
          !hasScope([scope], needed);
        if (refused) refusals += 1;
        if (refused !== expected)
          mismatches.push(`${field.name} with a ${scope} token: ${refused ? 'refused' : 'allowed'}`);
      }
      if ((await run(source, session)).some(isScopeRefusal)) mismatches.push(`${field.name} refused to a session`);
    }
    assert.deepEqual(mismatches, []);
    // A read token is refused every mutation, so there must be at least as many refusals.
    assert.ok(refusals >= Object.keys(schema.getMutationType()!.getFields()).length - 1);
  });

  test('a refused call changes nothing: a read token cannot create a project', async () => {
    const before: Array<{ n: string }> = await db.ds.query('SELECT count(*)::text AS n FROM projects');
    const errors = await run(
      `mutation { createProject(organizationId: "${randomUUID()}", name: "x") { id } }`,
      tokens.read,
    );
    assert.ok(errors.some(isScopeRefusal), JSON.stringify(errors));
    const after: Array<{ n: string }> = await db.ds.query('SELECT count(*)::text AS n FROM projects');
    assert.equal(after[0].n, before[0].n);
  });

  test('logout is for sessions only', async () => {
    for (const scope of SCOPES) assert.ok((await run('mutation { logout }', tokens[scope])).some(isScopeRefusal));
    assert.equal((await run('mutation { logout }', session)).some(isScopeRefusal), false);
  });
});
