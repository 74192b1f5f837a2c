import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** The server tests use: the local PostgreSQL (trust auth) unless TRACKER_TEST_PG_URL says otherwise. */
export const TEST_PG_ADMIN_URL = process.env.TRACKER_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TRACKER_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestPostgres {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database per suite, so suites never see each other's rows. */
export async function createTestPostgres(): Promise<TestPostgres> {
  const name = `tracker_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: TEST_PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface TempDir {
  path: string;
  remove(): void;
}

export function createTempDir(prefix = 'tracker-test-'): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A unique Redis key prefix per suite: suites share the server but never a key. */
export function createTestRedisPrefix(): string {
  return `tracker-test-${randomBytes(6).toString('hex')}`;
}
