export { DatabaseQueue } from './database-queue';
export type { DatabaseQueueOptions } from './database-queue';
export { BacklogBound } from './backlog-bound';
export type { BacklogLimits } from './backlog-bound';
export { MAX_ATTEMPTS } from './queue';
export type { Queue, QueueMessage, QueuePayload } from './queue';
export { RedisStreamQueue } from './redis-stream-queue';
export type { RedisQueueOptions } from './redis-stream-queue';
export { ShardedQueue } from './sharded-queue';
export type { ShardedQueueOptions, ShardState } from './sharded-queue';
export {
  createRecycler,
  createRedisClient,
  isClusterClient,
  isTimeout,
  recycleOnTimeout,
  REDIS_SOCKET_OPTIONS,
  RedisTimeoutError,
} from './redis-client';
export type { Recycler } from './redis-client';
export { ENQUEUE_TIMEOUT_MS } from './redis-stream-queue';
export { RedisServerWatch } from './redis-server-watch';
export type { RedisPersistence, RedisServerState, RedisServerWatchOptions } from './redis-server-watch';
