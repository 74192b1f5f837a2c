import type { z } from 'zod';
import { AppError } from '../errors';
import { DROPPED_BREADCRUMBS_REASON, limitBreadcrumbs } from './evidence';
import { describeZodError } from './error-event.schema';
import { normalizeJson } from './normalize';
import { limitTags } from './wire-fields';

// Here rather than in ingest: the ingest edge parses every body with it, and the dashboard's
// scrubbing preview (core/src/projects/preview-scrubbing.ts) must parse a sample exactly alike.

/**
 * A JSON object body checked against `schema`, or a 400 naming the first bad field.
 *
 * Normalized first, so that whatever is accepted can be stored (issue 15): strings PostgreSQL
 * refuses are mended and deep values cut (`normalizeJson`, which refuses only JSON nested beyond
 * 1,000 levels), and tags beyond the first 50 valid ones are dropped and counted in the body's
 * `context._meta.tags` when the body has a context (Sentry's `_meta`: what the edge changed);
 * so are breadcrumbs beyond the newest 100 or without a timestamp, in `context._meta.breadcrumbs`.
 */
export function parseBody<T extends z.ZodTypeAny>(schema: T, body: unknown): z.output<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('BAD_USER_INPUT', 'body: must be a JSON object');
  }
  const normalized = noteDroppedBreadcrumbs(
    noteDroppedTags(normalizeJson(body) as Record<string, unknown>, schema),
    schema,
  );
  const parsed = schema.safeParse(normalized);
  if (!parsed.success) throw new AppError('BAD_USER_INPUT', describeZodError(parsed.error));
  return parsed.data;
}

function noteDroppedTags(body: Record<string, unknown>, schema: z.ZodTypeAny): Record<string, unknown> {
  const tags = body.tags;
  if (tags === null || typeof tags !== 'object' || Array.isArray(tags)) return body;
  const { dropped } = limitTags(tags as Record<string, unknown>);
  return withMeta(
    body,
    schema,
    'tags',
    dropped,
    'beyond the first 50, or a key longer than 32 characters, or not a text, number or boolean',
  );
}

function noteDroppedBreadcrumbs(body: Record<string, unknown>, schema: z.ZodTypeAny): Record<string, unknown> {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (!Array.isArray(body.breadcrumbs) || !shape || !('breadcrumbs' in shape)) return body;
  const { dropped } = limitBreadcrumbs(body.breadcrumbs);
  return withMeta(body, schema, 'breadcrumbs', dropped, DROPPED_BREADCRUMBS_REASON);
}

/** `body` with `context._meta[field] = {dropped, reason}`, when something was dropped and the schema has a context. */
function withMeta(
  body: Record<string, unknown>,
  schema: z.ZodTypeAny,
  field: string,
  dropped: number,
  reason: string,
): Record<string, unknown> {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (dropped === 0 || !shape || !('context' in shape)) return body;
  const context =
    body.context !== null && typeof body.context === 'object' && !Array.isArray(body.context) ? body.context : {};
  const meta = (context as { _meta?: unknown })._meta;
  return {
    ...body,
    context: {
      ...context,
      _meta: {
        ...(meta !== null && typeof meta === 'object' ? meta : {}),
        [field]: { dropped, reason },
      },
    },
  };
}
