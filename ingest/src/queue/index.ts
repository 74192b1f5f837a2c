export { DatabaseQueue } from './database-queue';
export type { DatabaseQueueOptions } from './database-queue';
export { MAX_ATTEMPTS } from './queue';
export type { Queue, QueueMessage, QueuePayload } from './queue';
export { RedisStreamQueue } from './redis-stream-queue';
export type { RedisQueueOptions } from './redis-stream-queue';
