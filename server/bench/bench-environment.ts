/**
 * What the ingest benches share around their forked targets (target-process.ts): a fresh
 * PostgreSQL database, a Redis key prefix and a data folder for the run; fresh business-plan
 * projects so a quota never bites; and a clean-up that runs once, on the way out or on SIGINT /
 * SIGTERM (children killed, Redis keys deleted, database dropped, folder removed).
 */
import { randomUUID } from 'node:crypto';
import { createProject, openDatabase, signUp, type Database } from '@tracker/core';
import { createTempDir, createTestPostgres, createTestRedisPrefix, TEST_REDIS_URL } from '@tracker/core/testing';
import { createClient } from 'redis';
import { killChildren } from './target-process';

const newRedisClient = () => createClient({ url: TEST_REDIS_URL });

export interface BenchEnvironment {
  db: Database;
  redis: ReturnType<typeof newRedisClient>;
  /** The Redis key prefix of this run's targets (their stream is `<prefix>:jobs`). */
  prefix: string;
  /** Environment for `startTarget`: database, Redis, prefix, data folder, log level. */
  childEnv: Record<string, string>;
  /**
   * A fresh organization (business plan) and project. With `rateLimitPerSecond`, its key has
   * that per-second limit, so the rate-limit check runs on every request.
   */
  freshProject(options?: {
    rateLimitPerSecond?: number;
    discards?: boolean;
    filters?: boolean;
  }): Promise<{ key: string; number: string }>;
  /** Deletes this run's Redis keys (the next run starts from an empty stream). */
  clearRedis(): Promise<void>;
  /** True once SIGINT or SIGTERM came: start no further target. */
  readonly aborted: boolean;
  /** Everything above undone; safe to call more than once. */
  close(): Promise<void>;
}

let onSignal: (() => Promise<void>) | undefined;
let aborted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    aborted = true;
    killChildren();
    // Whatever happens, do not linger: cleanup gets 20 s.
    setTimeout(() => process.exit(130), 20_000).unref();
    void (onSignal?.() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}
process.on('exit', killChildren);

export async function openBenchEnvironment(logLevel = 'silent'): Promise<BenchEnvironment> {
  const dir = createTempDir('tracker-bench-');
  const prefix = createTestRedisPrefix();
  const redis = newRedisClient();
  redis.on('error', () => undefined);
  let pg: Awaited<ReturnType<typeof createTestPostgres>> | undefined;
  let db: Database | undefined;
  const clearRedis = async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(keys);
  };
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      killChildren();
      await db?.close().catch(() => undefined);
      if (redis.isOpen) {
        await clearRedis().catch(() => undefined);
        await redis.close().catch(() => undefined);
      }
      await pg?.drop().catch((e: Error) => console.error(`could not drop the database: ${e.message}`));
      dir.remove();
    })());
  onSignal = close;
  try {
    await redis.connect();
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: dir.path }, { migrate: true, poolSize: 2 });
  } catch (err) {
    await close();
    throw err;
  }
  const opened = db;
  let accounts = 0;
  return {
    db: opened,
    redis,
    prefix,
    childEnv: {
      BENCH_DATABASE_URL: pg.url,
      BENCH_REDIS_URL: TEST_REDIS_URL,
      BENCH_REDIS_PREFIX: prefix,
      BENCH_DATA_DIR: dir.path,
      BENCH_LOG_LEVEL: logLevel,
    },
    async freshProject(options = {}) {
      accounts += 1;
      const s = await signUp(
        opened.ds,
        {
          email: `bench${accounts}-${randomUUID()}@example.com`,
          password: 'correct horse battery',
          organizationName: `Bench ${accounts}`,
        },
        'business',
      );
      const { project, key } = await createProject(opened.ds, s.user.id, s.organization.id, 'Bench');
      if (options.rateLimitPerSecond !== undefined) {
        await opened.ds.query('UPDATE project_keys SET rate_limit_per_second = $1 WHERE public_key = $2', [
          options.rateLimitPerSecond,
          key.publicKey,
        ]);
      }
      if (options.discards) {
        // One discarded issue whose key the bench's events do not have: every request then pays
        // the edge's discard check (a stack parse and a hash) and is still accepted.
        const [issue] = await opened.ds.query(
          `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, discarded_at)
           VALUES ($1, $2, 'Error: discarded', 'Error', 'error', now(), now(), now()) RETURNING id`,
          [project.id, randomUUID()],
        );
        await opened.ds.query(
          `INSERT INTO issue_discard_keys (project_id, grouping_key, issue_id) SELECT project_id, fingerprint, id FROM issues WHERE id = $1`,
          [issue.id],
        );
      }
      if (options.filters) {
        // Every inbound filter on, none matching the bench's event (issue 31): each request pays
        // the whole check (globs, stack scan, URL, User-Agent) and is still accepted.
        const settings = {
          browserExtensions: true,
          localhost: true,
          legacyBrowsers: true,
          webCrawlers: true,
          errorMessages: ['*ResizeObserver loop*', 'Script error.', '*Non-Error promise rejection*'],
          releases: ['*-dev', 'staging@*'],
        };
        await opened.ds.query('INSERT INTO project_inbound_filters (project_id, settings) VALUES ($1, $2::jsonb)', [
          project.id,
          JSON.stringify(settings),
        ]);
      }
      const [row] = await opened.ds.query('SELECT number FROM projects WHERE id = $1', [project.id]);
      return { key: key.publicKey, number: String(row.number) };
    },
    clearRedis,
    get aborted() {
      return aborted;
    },
    close,
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
