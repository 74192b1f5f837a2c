/** A real Postgres, the Apollo server as configured for HTTP, and signed-up tenants: for the read-API suites. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { ApolloServer } from '@apollo/server';
import { authenticate, loadConfig, openDatabase, type Database } from '@tracker/core';
import { createTestPostgres, type TestPostgres } from '@tracker/core/testing';
import { createApollo } from '../src/api.plugin';
import { createContext, type Context } from '../src/context';

export interface Tenant {
  token: string;
  organization: string;
  project: string;
}

export interface Harness {
  db: Database;
  /** The answer as a client would see it (JSON round trip). */
  run(source: string, variables?: Record<string, unknown>, token?: string): Promise<any>;
  /** Data of an answer that must have no errors. */
  ok(source: string, variables?: Record<string, unknown>, token?: string): Promise<any>;
  /** The `extensions.code` of the first error of an answer that must fail. */
  code(source: string, variables?: Record<string, unknown>, token?: string): Promise<string>;
  tenant(): Promise<Tenant>;
  close(): Promise<void>;
}

export async function createHarness(): Promise<Harness> {
  const pg: TestPostgres = await createTestPostgres();
  const db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
  const apollo: ApolloServer<Context> = await createApollo();
  const config = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });

  const run: Harness['run'] = async (source, variables = {}, token) => {
    const principal = token ? await authenticate(db.ds, token) : null;
    const response = await apollo.executeOperation(
      { query: source, variables },
      { contextValue: createContext({ ds: db.ds, config }, principal) },
    );
    return JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
  };
  const ok: Harness['ok'] = async (source, variables, token) => {
    const r = await run(source, variables, token);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    return r.data;
  };
  const code: Harness['code'] = async (source, variables, token) => {
    const r = await run(source, variables, token);
    assert.ok(r.errors?.length, `expected an error, got ${JSON.stringify(r.data)}`);
    return r.errors[0].extensions?.code;
  };
  const tenant = async (): Promise<Tenant> => {
    const s = await ok(
      `mutation($e: String!) { signup(email: $e, password: "long enough pw", organizationName: "Org") { token organization { id } } }`,
      { e: `u-${randomUUID().slice(0, 8)}@example.com` },
    );
    const token = s.signup.token;
    const p = await ok(
      `mutation($o: ID!) { createProject(organizationId: $o, name: "Web") { id } }`,
      { o: s.signup.organization.id },
      token,
    );
    return { token, organization: s.signup.organization.id, project: p.createProject.id };
  };
  return {
    db,
    run,
    ok,
    code,
    tenant,
    async close() {
      await apollo.stop();
      await db.close();
      await pg.drop();
    },
  };
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing seed can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
