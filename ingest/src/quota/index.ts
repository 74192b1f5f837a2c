export { createDatabaseIngestGate, createRedisIngestGate } from './create-gate';
export { AdmissionRefusal } from './ingest-gate';
export type { IngestGate, IngestGateOptions } from './ingest-gate';
