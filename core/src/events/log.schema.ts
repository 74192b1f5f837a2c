import { z } from 'zod';
import { opt, truncated, wireFields } from './wire-fields';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const MAX_LOG_MESSAGE_CHARS = 8_192;

/**
 * `POST /ingest/log` body (docs/wire.md). `environment` defaults to `production` as in the SDKs;
 * `warning` is read as `warn` because error levels spell it that way and SDKs mix the two.
 * `id` is optional: given, it makes a retried request idempotent; absent, ingest assigns one.
 */
export const logSchema = z.object({
  id: opt(wireFields.uuid()),
  level: z.preprocess((v) => (v === 'warning' ? 'warn' : v), z.enum(LOG_LEVELS)),
  message: truncated(MAX_LOG_MESSAGE_CHARS),
  context: opt(wireFields.context()),
  environment: opt(wireFields.environment()).transform((v) => v ?? 'production'),
  release: opt(wireFields.release()),
  tags: opt(wireFields.tags()),
  timestamp: opt(wireFields.timestamp()),
});

export type LogBody = z.output<typeof logSchema>;
