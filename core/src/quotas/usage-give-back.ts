import type { DataSource } from 'typeorm';
import type { DiscardedUsage } from '../events/persist-events';
import { releaseOrganizationUsage, usageRedisKey } from './usage';

/**
 * Gives event-quota units back: the worker calls it after committing a batch, for events it
 * dropped because their issue is discarded (the edge had counted them before it could know).
 * Where the units go back to is where the edge counts them (docs/quotas.md).
 */
export type UsageGiveBack = (usage: DiscardedUsage) => Promise<void>;

/** Embedded: the `org_usage` row. */
export function createDatabaseUsageGiveBack(ds: DataSource): UsageGiveBack {
  return (u) => releaseOrganizationUsage(ds, u.organizationId, 'events', u.period, u.count);
}

/** The one Redis command it needs, as node-redis's client has it (core has no Redis client). */
export interface UsageGiveBackRedis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Takes back ARGV[1] units, never below zero (the ingest gate's own release script). */
const GIVE_BACK = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = math.min(tonumber(ARGV[1]), c)
if n > 0 then redis.call('DECRBY', KEYS[1], n) end
return n`;

/** Production: the organization's monthly key in Redis. */
export function createRedisUsageGiveBack(redis: UsageGiveBackRedis, prefix: string): UsageGiveBack {
  return async (u) => {
    await redis.eval(GIVE_BACK, {
      keys: [usageRedisKey(prefix, 'events', u.organizationId, u.period)],
      arguments: [String(u.count)],
    });
  };
}
