import type { Config, Database } from '@tracker/core';
import { DatabaseQueue, RedisStreamQueue, type Queue } from '@tracker/ingest';

export interface QueueTuning {
  /** Redis: idle time after which a dead worker's messages are taken over. */
  reclaimIdleMs?: number;
}

/** Redis streams when REDIS_URL is set; otherwise the table-backed queue in the same database. */
export async function createQueue(config: Config, db: Database, tuning: QueueTuning = {}): Promise<Queue> {
  if (config.redisUrl) {
    return RedisStreamQueue.connect({ url: config.redisUrl, prefix: config.redisPrefix, reclaimIdleMs: tuning.reclaimIdleMs });
  }
  return DatabaseQueue.open(db.ds, { releaseLocksOnStart: db.kind === 'pglite' });
}
