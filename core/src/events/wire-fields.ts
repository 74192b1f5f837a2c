import { z } from 'zod';

export const MAX_TAGS = 50;

/**
 * Oversized text is cut, not refused: an error with a huge message is still an error the
 * user wants to see, and refusing it would lose the event.
 */
export const truncated = (max: number) => z.string().transform((s) => (s.length > max ? `${s.slice(0, max - 1)}…` : s));

/** SDKs of other vendors send `null` for "absent"; treat both alike. */
export const opt = <T extends z.ZodTypeAny>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const tagValue = z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v).slice(0, 200));

/** Fields every ingest body shares, so the four endpoints validate them alike. */
export const wireFields = {
  uuid: () =>
    z
      .string()
      .uuid('must be a UUID')
      .transform((s) => s.toLowerCase()),
  environment: () => z.string().min(1, 'must not be empty').max(64),
  release: () => z.string().min(1).max(200),
  tags: () =>
    z
      .record(z.string().min(1).max(32), tagValue)
      .refine((t) => Object.keys(t).length <= MAX_TAGS, `at most ${MAX_TAGS} tags`),
  context: () => z.record(z.string(), z.unknown()),
  timestamp: () => z.string().datetime({ offset: true, message: 'must be an ISO 8601 date-time' }),
};
