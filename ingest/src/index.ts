export { ingestPlugin, MAX_EVENT_BYTES } from './http/ingest.plugin';
export type { IngestDeps } from './http/ingest.plugin';
export { KeyCache } from './http/key-cache';
export type { KeyCacheOptions } from './http/key-cache';
export * from './queue';
export { processBatch } from './worker/process-batch';
export { startWorker } from './worker/worker';
export type { RunningWorker, WorkerOptions, WorkerStats } from './worker/worker';
