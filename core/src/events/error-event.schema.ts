import { z } from 'zod';
import { cutText } from './normalize';
import { MAX_TAGS, opt, required, truncated, wireFields } from './wire-fields';
import { limitBreadcrumbs } from './evidence/breadcrumbs';
import { limitCauses, type Cause } from './evidence/causes';
import { limitContextLines } from './evidence/context-lines';
import { limitFrames, MAX_STRUCTURED_FRAMES } from './evidence/frames';
import { requestOf } from './evidence/request';
import type { StackFrame } from '../stacktrace/stack-frame';
import { limitDebugImages, type DebugImage } from './debug-images';

export { MAX_TAGS };

export const LEVELS = ['fatal', 'error', 'warning', 'info'] as const;

export const MAX_EVENT_MESSAGE_CHARS = 8_192;
export const MAX_STACK_CHARS = 64 * 1024;
export const MAX_FINGERPRINT_ENTRIES = 20;
export const MAX_FINGERPRINT_ENTRY_CHARS = 200;

/**
 * The product spec types `fingerprint` as a string; Sentry's SDKs (and ours before issue 16)
 * send an array. Both are accepted and stored as an array, so `"x"` and `["x"]` are one key and
 * group into one issue. Entries are cut, never refused; past the 20th they are dropped.
 */
function fingerprintField() {
  const entry = truncated(MAX_FINGERPRINT_ENTRY_CHARS);
  return z.union(
    [
      entry.transform((s) => [s]),
      z
        .array(entry)
        .min(1)
        .transform((f) => f.slice(0, MAX_FINGERPRINT_ENTRIES)),
    ],
    { error: 'must be a string or a non-empty array of strings' },
  );
}

/** `POST /ingest/error` body (docs/wire.md). The worker re-reads jobs with the same schema. */
export const errorEventSchema = z.object({
  eventId: opt(wireFields.uuid()),
  message: truncated(MAX_EVENT_MESSAGE_CHARS),
  type: required(256),
  environment: wireFields.environment(),
  level: opt(z.enum(LEVELS)),
  release: opt(wireFields.release()),
  stack: opt(truncated(MAX_STACK_CHARS)),
  fingerprint: opt(fingerprintField()),
  tags: opt(wireFields.tags()),
  context: opt(wireFields.context()),
  user: opt(
    z
      .object({
        id: opt(z.union([z.string(), z.number()]).transform((id) => cutText(String(id), 128))),
        email: opt(truncated(320)),
      })
      .catchall(z.unknown()),
  ),
  url: opt(truncated(2048)),
  timestamp: opt(wireFields.timestamp()),
  handled: opt(z.boolean()),
  sdk: opt(z.object({ name: truncated(64), version: truncated(32) })),
  // The evidence of issue 29 (docs/ingest.md, "Evidence"): extras, so what cannot be used of
  // them is dropped or cut, never the event; only a wrong type of the field itself is a 400.
  breadcrumbs: opt(list().transform((b) => limitBreadcrumbs(b).breadcrumbs)),
  causes: opt(list().transform((c) => limitCauses(c, false))),
  contextLines: opt(list().transform(limitContextLines)),
  request: opt(z.record(z.string(), z.unknown()).transform(requestOf)),
});

function list() {
  return z.array(z.unknown(), { error: 'must be an array' });
}

export type ErrorEventInput = z.input<typeof errorEventSchema>;
export type ErrorEvent = z.output<typeof errorEventSchema>;

export { MAX_STRUCTURED_FRAMES };

/**
 * Frames given as data (innermost first), for events whose SDK sends them structured instead of
 * an `error.stack` text: Sentry's `stacktrace.frames` (docs/sentry-compatibility.md). Not part of
 * `/ingest/error`'s contract: only the Sentry endpoints write it, into the queued event, and the
 * worker then takes these frames instead of parsing `stack`.
 */
export const framesSchema = list().transform(limitFrames);

/**
 * An error event as queued: the wire body, plus structured frames when the edge had them, for
 * the thrown error and for each of its causes (Sentry's `exception.values`). Frames may carry
 * source lines (`context`) and local variables (`vars`).
 */
export const queuedErrorEventSchema = errorEventSchema.extend({
  frames: opt(framesSchema),
  // The message an exception was logged with (Sentry's `logentry` beside `exception`).
  logMessage: opt(truncated(MAX_EVENT_MESSAGE_CHARS)),
  causes: opt(list().transform((c) => limitCauses(c, true))),
  // Sentry's `debug_meta.images` of type `sourcemap` (decision 044); bad entries are dropped.
  debugImages: opt(list().transform(limitDebugImages)),
});
export type QueuedErrorEvent = ErrorEvent & {
  frames?: StackFrame[];
  causes?: Cause[];
  debugImages?: DebugImage[];
  logMessage?: string;
};

/** The first problem, naming the field: `type: must not be empty`. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid body';
  const path = issue.path.join('.');
  // zod 4 leaves `issue.input` out unless asked (`reportInput`), so the message tells a missing
  // field from one of the wrong type ("… received number").
  if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) return `${path}: is required`;
  return path ? `${path}: ${issue.message}` : issue.message;
}
