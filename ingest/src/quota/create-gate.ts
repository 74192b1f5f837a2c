import type { DataSource } from 'typeorm';
import { DatabaseCounter } from './database-counter';
import { Gate } from './gate';
import type { IngestGate, IngestGateOptions } from './ingest-gate';
import { RedisCounter } from './redis-counter';

/** Redis-backed gate (production): counts shared by every ingest process. */
export async function createRedisIngestGate(
  ds: DataSource,
  redis: { url: string; prefix: string },
  options: IngestGateOptions = {},
): Promise<IngestGate> {
  return new Gate(ds, await RedisCounter.connect(redis.url, redis.prefix), options);
}

/** Database-backed gate (embedded): the quota in `org_usage`, the rate window in memory. */
export function createDatabaseIngestGate(ds: DataSource, options: IngestGateOptions = {}): IngestGate {
  return new Gate(ds, new DatabaseCounter(ds), options);
}
