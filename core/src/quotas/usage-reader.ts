import type { DataSource } from 'typeorm';
import { USAGE_METERS, type UsageMeter } from '../plans';
import { usageRedisKey } from './usage';

/** One organization's counts for a period, per meter (0 where nothing was counted). */
export type UsageCounts = Record<UsageMeter, number>;

/**
 * Reads the monthly usage counters wherever the ingest edge keeps them: the `org_usage` table
 * (embedded) or Redis (production). The api (usage in GraphQL) and the usage-warning job read
 * through this, so neither knows which backend is in use.
 */
export interface UsageReader {
  readonly kind: 'database' | 'redis';
  /** One organization's counts for the period. */
  read(organizationId: string, period: string): Promise<UsageCounts>;
  /** Every organization with something counted in the period (and only those), with its counts. */
  listActive(period: string): Promise<Map<string, UsageCounts>>;
}

const zero = (): UsageCounts => ({ events: 0, logs: 0 });

/** The embedded backend: `org_usage (organization_id, meter, period, count)`. */
export function createDatabaseUsageReader(ds: DataSource): UsageReader {
  return {
    kind: 'database',
    async read(organizationId, period) {
      const counts = zero();
      const rows: Array<{ meter: UsageMeter; count: string | number }> = await ds.query(
        'SELECT meter, count FROM org_usage WHERE organization_id = $1 AND period = $2',
        [organizationId, period],
      );
      for (const r of rows) counts[r.meter] = Number(r.count);
      return counts;
    },
    async listActive(period) {
      const rows: Array<{ organization_id: string; meter: UsageMeter; count: string | number }> = await ds.query(
        'SELECT organization_id, meter, count FROM org_usage WHERE period = $1 AND count > 0',
        [period],
      );
      const active = new Map<string, UsageCounts>();
      for (const r of rows) {
        const counts = active.get(r.organization_id) ?? zero();
        counts[r.meter] = Number(r.count);
        active.set(r.organization_id, counts);
      }
      return active;
    },
  };
}

/**
 * The two Redis commands the reader needs, as node-redis's client has them. Declared here so
 * core does not depend on a Redis client (the server creates one and passes it in).
 */
export interface UsageRedisCommands {
  mGet(keys: string[]): Promise<Array<string | null>>;
  scan(cursor: string, options: { MATCH: string; COUNT: number }): Promise<{ cursor: string; keys: string[] }>;
}

/** Keys fetched per MGET while listing: bounded replies, a few round trips for many organizations. */
const MGET_CHUNK = 500;

const globEscape = (s: string) => s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);

/**
 * The production backend: the strings at `usageRedisKey(prefix, meter, org, period)`. They count
 * what the edge processes have *reserved* (accepted plus blocks not yet used, which an idle
 * process gives back after ~2 s), so a reading is accurate to within a few seconds of traffic.
 */
export function createRedisUsageReader(redis: UsageRedisCommands, prefix: string): UsageReader {
  return {
    kind: 'redis',
    async read(organizationId, period) {
      const values = await redis.mGet(USAGE_METERS.map((m) => usageRedisKey(prefix, m, organizationId, period)));
      const counts = zero();
      USAGE_METERS.forEach((m, i) => (counts[m] = Number(values[i] ?? 0) || 0));
      return counts;
    },
    async listActive(period) {
      // Both meters' keys end in `:<period>` (usageRedisKey); anything else under `:quota:` that
      // does not parse as one of them is not ours to read.
      const pattern = new RegExp(`^${regexEscape(prefix)}:quota:(?:(logs):)?([0-9a-f-]{36}):${regexEscape(period)}$`);
      const found: Array<{ key: string; organizationId: string; meter: UsageMeter }> = [];
      let cursor = '0';
      do {
        const page = await redis.scan(cursor, {
          MATCH: `${globEscape(prefix)}:quota:*:${globEscape(period)}`,
          COUNT: 1000,
        });
        cursor = String(page.cursor);
        for (const key of page.keys) {
          const m = pattern.exec(key);
          if (m) found.push({ key, organizationId: m[2], meter: m[1] === 'logs' ? 'logs' : 'events' });
        }
      } while (cursor !== '0');
      const active = new Map<string, UsageCounts>();
      for (let i = 0; i < found.length; i += MGET_CHUNK) {
        const chunk = found.slice(i, i + MGET_CHUNK);
        const values = await redis.mGet(chunk.map((f) => f.key));
        chunk.forEach((f, j) => {
          const count = Number(values[j] ?? 0) || 0;
          if (count <= 0) return;
          const counts = active.get(f.organizationId) ?? zero();
          counts[f.meter] = count;
          active.set(f.organizationId, counts);
        });
      }
      return active;
    },
  };
}
