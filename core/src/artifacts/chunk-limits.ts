/**
 * What the chunk-upload endpoint advertises and enforces (docs/sentry-compatibility.md,
 * "sentry-cli"). sentry-cli splits a bundle into `CHUNK_SIZE_BYTES` pieces, sends up to
 * `CHUNKS_PER_REQUEST` of them per request and at most `MAX_REQUEST_BYTES` per request.
 */

/** Sentry's own chunk size: sentry-cli and the bundler plugins are tuned for it. */
export const CHUNK_SIZE_BYTES = 8 * 1024 * 1024;
export const CHUNKS_PER_REQUEST = 64;
/** One request's body (multipart, each chunk possibly gzip): four chunks' worth. */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
/** Two cores per process is the norm here; more parallel uploads only queue. */
export const UPLOAD_CONCURRENCY = 2;
/** A bundle (the concatenated chunks) at most this large: sentry-cli refuses bigger files itself. */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;
/**
 * Chunks an organization may hold unassembled, by count and by bytes: a client that uploads and
 * never assembles fills its own allowance (413 after it), not the database.
 */
export const MAX_PENDING_CHUNKS_PER_ORG = 1_000;
export const MAX_PENDING_CHUNK_BYTES_PER_ORG = 256 * 1024 * 1024;
/** Unassembled chunks are purged after this long (the worker's hourly purge). */
export const CHUNK_TTL_MS = 24 * 60 * 60 * 1000;
/** Chunks named in one assemble request: a 64 MB bundle in 8 MB chunks needs 8. */
export const MAX_CHUNKS_PER_BUNDLE = MAX_BUNDLE_BYTES / (1024 * 1024);
