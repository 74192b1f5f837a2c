import { deadLetterSink, type Config, type Database } from '@tracker/core';
import {
  DatabaseQueue,
  RedisStreamQueue,
  ShardedQueue,
  type BacklogLimits,
  type Queue,
  type RedisQueueOptions,
} from '@tracker/ingest';

export interface QueueTuning {
  /** Redis: idle time after which a dead worker's messages are taken over. */
  reclaimIdleMs?: number;
  /** Database queue: back-off after a failed attempt is this times 2^attempts (default 1 s). */
  retryBaseMs?: number;
  /**
   * Database queue: refuse new items (503 + Retry-After) over this backlog. Given by the ingest
   * process for its `jobs` queue only; the CLI's replay and the alerts queue have none.
   */
  backlog?: BacklogLimits;
  /** Redis: where the queue says it made its consumer group again (Redis lost it). */
  log?: RedisQueueOptions['log'];
}

/**
 * Redis streams when REDIS_URL is set; otherwise the table-backed queue in the same database.
 * `topic` separates queues: `jobs` (events, the default) and `alerts` (deliveries), so a backlog
 * of one never delays the other.
 */
export async function createQueue(
  config: Config,
  db: Database,
  tuning: QueueTuning = {},
  topic = 'jobs',
): Promise<Queue> {
  if (config.redisUrl) {
    // The stream is `<prefix>:jobs`; other topics get their own prefix level: `<prefix>:alerts:jobs`.
    const prefix = topic === 'jobs' ? config.redisPrefix : `${config.redisPrefix}:${topic}`;
    const options = {
      url: config.redisUrl,
      prefix,
      topic,
      reclaimIdleMs: tuning.reclaimIdleMs,
      enqueueTimeoutMs: config.enqueueTimeoutMs,
      deadLetters: deadLetterSink(db.ds),
      log: tuning.log,
    };
    // Only the jobs queue is sharded: alert deliveries are few, and their order is not per project.
    if (topic === 'jobs' && config.queueShards > 1)
      return ShardedQueue.connect({ ...options, shards: config.queueShards });
    return RedisStreamQueue.connect(options);
  }
  return DatabaseQueue.open(db.ds, {
    topic,
    releaseLocksOnStart: db.kind === 'pglite',
    retryBaseMs: tuning.retryBaseMs,
    backlog: tuning.backlog,
  });
}
