import { z } from 'zod';

/**
 * What the edge makes of a Sentry `session` or `sessions` item: only what release health counts.
 * The user's `did` is hashed at the edge (`userHash`): the queue and the database never hold it.
 */

/** An aggregate bucket may say at most this many sessions of each state (Relay's u32 would allow 4 billion). */
export const MAX_BUCKET_SESSIONS = 1_000_000;
/** Buckets per `sessions` item: the SDKs send one per minute of a flush period (one or two). */
export const MAX_AGGREGATE_BUCKETS = 1_000;
/** Sentry's session ids are UUIDs; other SDKs send 32 hex. Kept as lower-case hex. */
const SID = /^[0-9a-f]{32}$/;
const HASH = /^[0-9a-f]{32}$/;

const count = z.number().int().min(0).max(MAX_BUCKET_SESSIONS);
const release = z.string().min(1).max(200);
const environment = z.string().min(1).max(64);

/** One update of one session (a `session` item). `status` is its state as the SDK sees it now. */
export const sessionUpdateSchema = z.object({
  sid: z.string().regex(SID),
  init: z.boolean(),
  status: z.enum(['ok', 'exited', 'errored', 'crashed', 'abnormal']),
  errors: z.number().int().min(0),
  userHash: z.string().regex(HASH).optional(),
  release,
  environment,
});

/** A `sessions` item: sessions that already ended, counted by the SDK (server mode). */
export const sessionAggregateSchema = z.object({
  release,
  environment,
  buckets: z
    .array(
      z.object({
        userHash: z.string().regex(HASH).optional(),
        exited: count,
        errored: count,
        crashed: count,
        abnormal: count,
      }),
    )
    .min(1)
    .max(MAX_AGGREGATE_BUCKETS),
});

export const sessionBodySchema = z.discriminatedUnion('kind', [
  sessionUpdateSchema.extend({ kind: z.literal('update') }),
  sessionAggregateSchema.extend({ kind: z.literal('aggregate') }),
]);

export type SessionUpdate = z.infer<typeof sessionUpdateSchema>;
export type SessionAggregate = z.infer<typeof sessionAggregateSchema>;
export type SessionBody = z.infer<typeof sessionBodySchema>;
