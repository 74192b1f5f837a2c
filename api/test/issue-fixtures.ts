import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { ApolloServer } from '@apollo/server';
import {
  authenticate,
  createProject,
  loadConfig,
  openDatabase,
  persistEvents,
  prepareEvent,
  signUp,
  type Database,
  type ErrorEvent,
  type ErrorEventInput,
  type PlanId,
} from '@tracker/core';
import { createTempDir, createTestPostgres, type TestPostgres } from '@tracker/core/testing';
import { createApollo } from '../src/api.plugin';
import { createContext, type Context } from '../src/context';

/** A real database, Apollo, and helpers to seed events through the worker's own persist step. */
export interface IssueFixture {
  db: Database;
  apollo: ApolloServer<Context>;
  /** Runs an operation as the bearer of `token`; the JSON a client would see. */
  run(source: string, variables?: Record<string, unknown>, token?: string): Promise<any>;
  /** Like run, failing on any error. */
  ok(source: string, variables?: Record<string, unknown>, token?: string): Promise<any>;
  account(plan?: PlanId): Promise<{ token: string; userId: string; organizationId: string; projectId: string }>;
  /** Stores events as the worker would (grouping, counters, releases, lifecycle), in one transaction. */
  ingest(projectId: string, events: Array<Partial<ErrorEventInput> & { at: Date }>): Promise<void>;
  close(): Promise<void>;
}

let accounts = 0;

/** PostgreSQL by default; `pglite` opens the embedded database in a temporary folder instead. */
export async function createIssueFixture(
  kind: 'postgres' | 'pglite' = 'postgres',
  options: { clock?: () => number } = {},
): Promise<IssueFixture> {
  const pg: TestPostgres | undefined = kind === 'postgres' ? await createTestPostgres() : undefined;
  const dir = kind === 'pglite' ? createTempDir() : undefined;
  const db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' }, { migrate: true });
  const apollo = await createApollo();
  const config = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });

  async function run(source: string, variables: Record<string, unknown> = {}, token?: string) {
    const principal = token ? await authenticate(db.ds, token) : null;
    const response = await apollo.executeOperation(
      { query: source, variables },
      { contextValue: createContext({ ds: db.ds, config, clock: options.clock }, principal) },
    );
    assert.equal(response.body.kind, 'single');
    return JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
  }

  return {
    db,
    apollo,
    run,
    async ok(source, variables = {}, token) {
      const r = await run(source, variables, token);
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      return r.data;
    },
    async account(plan = 'pro') {
      accounts += 1;
      const s = await signUp(
        db.ds,
        {
          email: `issues${accounts}-${randomUUID().slice(0, 6)}@example.com`,
          password: 'long enough pw',
          organizationName: `Org ${accounts}`,
        },
        plan,
      );
      const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'Web');
      return { token: s.token, userId: s.user.id, organizationId: s.organization.id, projectId: project.id };
    },
    async ingest(projectId, events) {
      const prepared = events.map(({ at, ...e }) =>
        prepareEvent({
          v: 1,
          kind: 'error',
          projectId,
          receivedAt: at.toISOString(),
          event: {
            message: 'boom',
            type: 'Error',
            environment: 'production',
            ...e,
            timestamp: at.toISOString(),
            eventId: e.eventId ?? randomUUID(),
          } as ErrorEvent & { eventId: string },
        }),
      );
      await db.ds.transaction((em) => persistEvents(em, prepared));
    },
    async close() {
      await apollo.stop();
      await db.close();
      await pg?.drop();
      dir?.remove();
    },
  };
}

export const HOUR_MS = 3_600_000;
