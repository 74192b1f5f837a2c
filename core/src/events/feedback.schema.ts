import { z } from 'zod';
import { opt, truncated, wireFields } from './wire-fields';

export const MAX_FEEDBACK_CHARS = 8_192;

/**
 * `POST /ingest/feedback` body (docs/wire.md). `email` is whatever the user typed into a
 * feedback form, so it is kept as given rather than refused for its format.
 */
export const feedbackSchema = z.object({
  id: opt(wireFields.uuid()),
  message: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .transform((s) => (s.length > MAX_FEEDBACK_CHARS ? `${s.slice(0, MAX_FEEDBACK_CHARS - 1)}…` : s)),
  email: opt(
    z
      .string()
      .trim()
      .max(320)
      .transform((s) => s || undefined),
  ),
  eventId: opt(wireFields.uuid()),
  /** Who wrote it, as they typed it: cut, never refused. */
  name: opt(truncated(256).transform((s) => s.trim() || undefined)),
  /** The page it was written on. */
  url: opt(truncated(2048).transform((s) => s.trim() || undefined)),
});

export type FeedbackBody = z.output<typeof feedbackSchema>;
