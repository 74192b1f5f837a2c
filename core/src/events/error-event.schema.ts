import { z } from 'zod';

export const LEVELS = ['fatal', 'error', 'warning', 'info'] as const;

export const MAX_EVENT_MESSAGE_CHARS = 8_192;
export const MAX_STACK_CHARS = 64 * 1024;
export const MAX_TAGS = 50;

/**
 * Oversized text is cut, not refused: an error with a huge message is still an error the
 * user wants to see, and refusing it would lose the event.
 */
const truncated = (max: number) => z.string().transform((s) => (s.length > max ? `${s.slice(0, max - 1)}…` : s));

/** SDKs of other vendors send `null` for "absent"; treat both alike. */
const opt = <T extends z.ZodTypeAny>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const tagValue = z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v).slice(0, 200));

/** `POST /ingest/error` body (DESIGN §4). The worker re-reads jobs with the same schema. */
export const errorEventSchema = z.object({
  eventId: opt(z.string().uuid('must be a UUID').transform((s) => s.toLowerCase())),
  message: truncated(MAX_EVENT_MESSAGE_CHARS),
  type: z.string().min(1, 'must not be empty').max(256),
  environment: z.string().min(1, 'must not be empty').max(64),
  level: opt(z.enum(LEVELS)),
  release: opt(z.string().min(1).max(200)),
  stack: opt(truncated(MAX_STACK_CHARS)),
  fingerprint: opt(z.array(z.string().max(200)).min(1).max(20)),
  tags: opt(
    z
      .record(z.string().min(1).max(32), tagValue)
      .refine((t) => Object.keys(t).length <= MAX_TAGS, `at most ${MAX_TAGS} tags`),
  ),
  context: opt(z.record(z.string(), z.unknown())),
  user: opt(
    z
      .object({
        id: opt(z.union([z.string().max(128), z.number()]).transform(String)),
        email: opt(z.string().max(320)),
      })
      .catchall(z.unknown()),
  ),
  url: opt(z.string().max(2048)),
  timestamp: opt(z.string().datetime({ offset: true, message: 'must be an ISO 8601 date-time' })),
  handled: opt(z.boolean()),
  sdk: opt(z.object({ name: z.string().max(64), version: z.string().max(32) })),
});

export type ErrorEventInput = z.input<typeof errorEventSchema>;
export type ErrorEvent = z.output<typeof errorEventSchema>;

/** The first problem, naming the field: `type: must not be empty`. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid body';
  const path = issue.path.join('.');
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${path}: is required`;
  return path ? `${path}: ${issue.message}` : issue.message;
}
