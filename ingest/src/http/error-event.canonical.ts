import {
  errorEventSchema,
  LEVELS,
  MAX_EVENT_MESSAGE_CHARS,
  MAX_FINGERPRINT_ENTRIES,
  MAX_FINGERPRINT_ENTRY_CHARS,
  MAX_STACK_CHARS,
  MAX_STRUCTURED_FRAMES,
  MAX_TAGS,
  type ErrorEvent,
  type QueuedErrorEvent,
} from '@tracker/core';
import { addCanonicalFormat, compileCanonicalCheck, str, zodPattern } from './canonical-body';

// The very patterns the zod schema checks; a canonical event id is also lowercase already
// (zod lowercases it).
const UUID = zodPattern(errorEventSchema.shape.eventId);
const DATETIME = zodPattern(errorEventSchema.shape.timestamp);
const UPPERCASE = /[A-Z]/;
addCanonicalFormat('tracker-lowercase-uuid', (s) => UUID.test(s) && !UPPERCASE.test(s));
addCanonicalFormat('tracker-datetime', (s) => DATETIME.test(s));

/**
 * `POST /ingest/error` bodies that `errorEventSchema` returns unchanged (see canonical-body.ts).
 * Stricter than the zod schema on purpose: no `null`s, no unknown fields, no texts it would
 * cut, tag values and `user.id` already strings, the event id already lowercase. Anything else
 * goes through zod as before.
 */
const errorEventCanonical = {
  type: 'object',
  required: ['message', 'type', 'environment'],
  additionalProperties: false,
  properties: {
    eventId: { type: 'string', format: 'tracker-lowercase-uuid' },
    message: str(MAX_EVENT_MESSAGE_CHARS),
    type: str(256, 1),
    environment: str(64, 1),
    level: { type: 'string', enum: [...LEVELS] },
    release: str(200, 1),
    stack: str(MAX_STACK_CHARS),
    // A string fingerprint is valid but not canonical: zod makes it a one-entry array.
    fingerprint: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_FINGERPRINT_ENTRIES,
      items: str(MAX_FINGERPRINT_ENTRY_CHARS),
    },
    tags: {
      type: 'object',
      maxProperties: MAX_TAGS,
      propertyNames: str(32, 1),
      additionalProperties: str(200),
    },
    context: { type: 'object', depth: 1 },
    user: {
      type: 'object',
      depth: 1,
      properties: { id: str(128), email: str(320) },
    },
    url: str(2048),
    timestamp: { type: 'string', format: 'tracker-datetime' },
    handled: { type: 'boolean' },
    sdk: {
      type: 'object',
      required: ['name', 'version'],
      additionalProperties: false,
      properties: { name: str(64), version: str(32) },
    },
    breadcrumbs: { type: 'array', normalizedBy: 'breadcrumbs' },
    causes: { type: 'array', normalizedBy: 'causes' },
    contextLines: { type: 'array', normalizedBy: 'contextLines' },
    request: { type: 'object', normalizedBy: 'request' },
  },
} as const;

export const isCanonicalErrorEvent = compileCanonicalCheck<ErrorEvent>(errorEventCanonical);

/**
 * An event mapped from a Sentry payload (`mapSentryEvent`) that `queuedErrorEventSchema` returns
 * unchanged: the canonical error event plus structured `frames`, at most as many as the schema
 * keeps. Only for objects parsed from text that `isPlainJsonText` passed (no NUL or surrogate
 * escape), as on the fast path.
 */
export const isCanonicalQueuedErrorEvent = compileCanonicalCheck<QueuedErrorEvent>({
  ...errorEventCanonical,
  properties: {
    ...errorEventCanonical.properties,
    frames: { type: 'array', maxItems: MAX_STRUCTURED_FRAMES, normalizedBy: 'frames' },
    causes: { type: 'array', normalizedBy: 'structuredCauses' },
  },
});
