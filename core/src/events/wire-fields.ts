import { z } from 'zod';
import { cutText } from './normalize';

export const MAX_TAGS = 50;
const MAX_TAG_KEY_CHARS = 32;
const MAX_TAG_VALUE_CHARS = 200;

/**
 * Oversized text is cut, not refused: an error with a huge message is still an error the
 * user wants to see, and refusing it would lose the event.
 */
export const truncated = (max: number) => z.string().transform((s) => cutText(s, max));

/** `truncated`, for a field that must not be empty. */
export const required = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .transform((s) => cutText(s, max));

/**
 * The tags to keep: the first MAX_TAGS with a key of 1 to 32 characters and a string, number
 * or boolean value (cut to 200 characters); `dropped` counts the others. Tags are extras, so
 * one bad tag drops that tag, never the event.
 */
export function limitTags(raw: Record<string, unknown>): { tags: Record<string, string>; dropped: number } {
  const tags: Record<string, string> = {};
  let kept = 0;
  let dropped = 0;
  for (const key of Object.keys(raw)) {
    const v = raw[key];
    const usable =
      kept < MAX_TAGS &&
      key.length >= 1 &&
      key.length <= MAX_TAG_KEY_CHARS &&
      (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
    if (!usable) {
      dropped += 1;
      continue;
    }
    tags[key] = cutText(String(v), MAX_TAG_VALUE_CHARS);
    kept += 1;
  }
  return { tags, dropped };
}

/** SDKs of other vendors send `null` for "absent"; treat both alike. */
export const opt = <T extends z.ZodTypeAny>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** Fields every ingest body shares, so the four endpoints validate them alike. */
export const wireFields = {
  uuid: () =>
    z
      .string()
      .uuid('must be a UUID')
      .transform((s) => s.toLowerCase()),
  environment: () => required(64),
  release: () => required(200),
  tags: () => z.record(z.string(), z.unknown()).transform((t) => limitTags(t).tags),
  context: () => z.record(z.string(), z.unknown()),
  timestamp: () => z.string().datetime({ offset: true, message: 'must be an ISO 8601 date-time' }),
};
