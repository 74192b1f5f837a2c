import { z } from 'zod';
import {
  LEVELS,
  queuedErrorEventSchema,
  MAX_EVENT_MESSAGE_CHARS,
  MAX_FINGERPRINT_ENTRIES,
  MAX_FINGERPRINT_ENTRY_CHARS,
  MAX_STACK_CHARS,
  MAX_STRUCTURED_FRAMES,
  MAX_TAGS,
  type QueuedErrorEvent,
} from './error-event.schema';
import { feedbackSchema, type FeedbackBody } from './feedback.schema';
import { logSchema, type LogBody } from './log.schema';
import { queuedVitalsSchema, type QueuedVitals } from './vitals.schema';
import { sessionBodySchema, type SessionBody } from '../sessions/session.schema';
import { checkInBodySchema, type CheckInBody } from '../monitors/check-in.schema';
import { isPlainJsonText, normalizeJson } from './normalize';
import { INBOUND_FILTERS, type InboundFilterName } from '../inbound-filters/settings';
import { limitBreadcrumbs } from './evidence/breadcrumbs';
import { limitCauses } from './evidence/causes';
import { limitContextLines } from './evidence/context-lines';
import { limitFrames } from './evidence/frames';
import { requestOf } from './evidence/request';

/**
 * A queued unit of work. Versioned (`v`) so that a rolling deploy can drain jobs written by
 * the previous version: bump `v` when the shape changes and keep reading the old one. Adding a
 * `kind` needs no bump (old jobs are still read the same), but workers must be deployed
 * before the edges that start writing it.
 */
interface JobBase {
  v: 1;
  projectId: string;
  /** ISO time the edge accepted it. */
  receivedAt: string;
}

export interface ErrorJob extends JobBase {
  kind: 'error';
  event: QueuedErrorEvent & { eventId: string };
}

/** Logs, vitals and feedback carry an `id` assigned at the edge: redelivery stores them once. */
export interface LogJob extends JobBase {
  kind: 'log';
  log: LogBody & { id: string };
}

export interface VitalsJob extends JobBase {
  kind: 'vitals';
  vitals: QueuedVitals & { id: string };
}

export interface FeedbackJob extends JobBase {
  kind: 'feedback';
  feedback: FeedbackBody & { id: string };
}

/** A Sentry session update or aggregate, already reduced to what release health counts (decision 045). */
export interface SessionJob extends JobBase {
  kind: 'session';
  session: SessionBody;
}

/**
 * Error events an edge dropped by one inbound filter of the project since its last such job
 * (issue 31): counts summed in the edge's memory, so a flood of filtered events is a job every
 * few seconds, not one per event. Display figures, not billing: a batch redelivered after its
 * ack failed may add its counts twice.
 */
export interface FilteredJob extends JobBase {
  kind: 'filtered';
  filtered: { filter: InboundFilterName; count: number; day: string };
}

/** A cron monitor's check-in (issue 33): the worker stores it and applies the failure rules. */
export interface CheckInJob extends JobBase {
  kind: 'check_in';
  checkIn: CheckInBody;
}

export type Job = ErrorJob | LogJob | VitalsJob | FeedbackJob | SessionJob | FilteredJob | CheckInJob;

const base = {
  v: z.literal(1),
  projectId: z.string().uuid(),
  receivedAt: z.string().datetime({ offset: true }),
};

const jobSchema = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('error'), event: queuedErrorEventSchema.extend({ eventId: z.string().uuid() }) }),
  z.object({ ...base, kind: z.literal('log'), log: logSchema.extend({ id: z.string().uuid() }) }),
  z.object({ ...base, kind: z.literal('vitals'), vitals: queuedVitalsSchema.extend({ id: z.string().uuid() }) }),
  z.object({ ...base, kind: z.literal('feedback'), feedback: feedbackSchema.extend({ id: z.string().uuid() }) }),
  z.object({ ...base, kind: z.literal('session'), session: sessionBodySchema }),
  z.object({
    ...base,
    kind: z.literal('filtered'),
    filtered: z.object({
      filter: z.enum(INBOUND_FILTERS),
      count: z.number().int().min(1).max(1_000_000_000),
      day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    }),
  }),
  z.object({ ...base, kind: z.literal('check_in'), checkIn: checkInBodySchema }),
]);

/** The field of each kind that carries its body. */
const BODY_FIELD = {
  error: 'event',
  log: 'log',
  vitals: 'vitals',
  feedback: 'feedback',
  session: 'session',
  filtered: 'filtered',
  check_in: 'checkIn',
} as const;

/**
 * The job as queue text: `JSON.stringify(job)`. An edge that already holds the body's JSON
 * text (`payloadJson`, e.g. the request body as received, once it is known to be exactly what
 * the schema would output) passes it instead of having it serialized again: the result is the
 * same JSON object (same fields, same values; only whitespace and key order may differ), so
 * `decodeJob` reads both alike. The caller guarantees `JSON.parse(payloadJson)` equals the
 * job's body field; this function does not check it.
 */
export function encodeJob(job: Job, payloadJson?: string): string {
  if (payloadJson === undefined) return JSON.stringify(job);
  return `${jobHead(job)}${payloadJson}}`;
}

/** The envelope up to the body field's value: `{"v":1,…,"event":`. */
function jobHead(job: Job): string {
  // The edge encodes runs of jobs of one project received in the same millisecond: the last
  // head is kept (four `JSON.stringify` calls and a concatenation per event otherwise).
  const last = lastHead;
  if (
    job.receivedAt === last.receivedAt &&
    job.projectId === last.projectId &&
    job.kind === last.kind &&
    job.v === last.v
  ) {
    return last.head;
  }
  const head =
    `{"v":${JSON.stringify(job.v)},"kind":${JSON.stringify(job.kind)},"projectId":${JSON.stringify(job.projectId)},` +
    `"receivedAt":${JSON.stringify(job.receivedAt)},"${BODY_FIELD[job.kind]}":`;
  lastHead = { v: job.v, kind: job.kind, projectId: job.projectId, receivedAt: job.receivedAt, head };
  return head;
}

let lastHead: { v: number; kind: string; projectId: string; receivedAt: string; head: string } = {
  v: NaN,
  kind: '',
  projectId: '',
  receivedAt: '',
  head: '',
};

/**
 * `encodeJob(job, payloadJson)` as UTF-8 bytes, for an edge that holds the body as the bytes it
 * received (or as JSON text it wrote itself: `encodeTextJob`): they are copied into the payload
 * as they are, never decoded to a string and encoded back (for a 2 KB event that round trip,
 * and measuring the string's UTF-8 length for the Redis protocol, was about a tenth of the
 * ingest edge's CPU; docs/benchmarks.md). `addField` appends
 * one string member to the body object, for a value that needs no JSON escaping (a UUID) and a
 * field the body does not have.
 *
 * The caller guarantees that the bytes decoded as UTF-8 (as the worker will decode the payload)
 * are JSON text equal to the job's body field, as for `encodeJob`. Invalid UTF-8 sequences are
 * harmless: the caller validated the decoded text, with the same replacement characters the
 * worker's decoding produces.
 */
export function encodeJobBytes(
  job: Job,
  payloadJson: Buffer | string,
  addField?: { name: string; value: string },
): Buffer {
  const head = jobHead(job); // ASCII: a UUID, an ISO time, fixed names
  const added = addField === undefined ? '' : `,"${addField.name}":"${addField.value}"`;
  if (typeof payloadJson === 'string') return encodeTextJob(head, payloadJson, added);
  // Before the object's closing brace: the last `}` byte (never inside a multi-byte sequence).
  const end = addField === undefined ? payloadJson.length : payloadJson.lastIndexOf(0x7d);
  if (end < 0) throw new Error('encodeJobBytes: the body is not a JSON object');
  // One allocation (from Node's pool for a typical event), written in place.
  const out = Buffer.allocUnsafe(head.length + payloadJson.length + added.length + 1);
  let at = out.write(head, 0, 'latin1');
  at += payloadJson.copy(out, at, 0, end);
  at += out.write(added, at, 'latin1');
  at += payloadJson.copy(out, at, end);
  out[at] = 0x7d; // the envelope's `}`
  return out;
}

/**
 * `encodeJobBytes` for a body the edge serialized itself (`JSON.stringify`, so it ends with the
 * object's `}`): encoded once, straight into the payload's one buffer. Concatenating strings
 * instead left a rope the queue's writer flattened and measured twice (the OTLP logs door).
 */
function encodeTextJob(head: string, payloadJson: string, added: string): Buffer {
  if (!payloadJson.endsWith('}')) throw new Error('encodeJobBytes: the body is not a JSON object');
  const out = Buffer.allocUnsafe(head.length + Buffer.byteLength(payloadJson) + added.length + 1);
  let at = out.write(head, 0, 'latin1');
  at += out.write(payloadJson, at, 'utf8') - 1;
  at += out.write(added, at, 'latin1');
  out[at++] = 0x7d; // the body's `}`
  out[at] = 0x7d; // the envelope's
  return out;
}

/**
 * Throws on a payload this version cannot read; the worker dead-letters it.
 *
 * The edge wrote an error job from the output of `errorEventSchema`, so it is already in the
 * schema's canonical form: no nulls, cut texts, string tags. Checking that form by hand costs
 * a few µs; running the zod schema again cost ~50 µs per event and was a tenth of the worker's
 * CPU (docs/benchmarks.md). Anything not plainly canonical (another kind, a null, an unknown
 * key, a value at or past a limit the schema would change) still goes through zod, which
 * normalizes it or throws, so the result is the schema's either way.
 */
export function decodeJob(payload: string): Job {
  let raw: unknown = JSON.parse(payload);
  // Jobs queued before the edge normalized (or replayed dead letters) may hold a NUL or a lone
  // surrogate; the text test is cheap and almost always false.
  if (!isPlainJsonText(payload)) raw = normalizeJson(raw);
  if (isCanonicalErrorJob(raw)) return raw;
  return jobSchema.parse(raw) as Job;
}

// Limits of `errorEventSchema` that are not exported from it. A canonical value must be one
// the schema accepts unchanged, so these may only ever be stricter than the schema's own: a
// value past them falls back to zod, which applies the real rule.
const MAX_TYPE_CHARS = 256;
const MAX_ENVIRONMENT_CHARS = 64;
const MAX_RELEASE_CHARS = 200;
const MAX_TAG_KEY_CHARS = 32;
const MAX_TAG_VALUE_CHARS = 200;
const MAX_USER_ID_CHARS = 128;
const MAX_EMAIL_CHARS = 320;
const MAX_URL_CHARS = 2048;
const MAX_SDK_NAME_CHARS = 64;
const MAX_SDK_VERSION_CHARS = 32;
// The very patterns zod's `.uuid()` and `.datetime({ offset: true })` test.
const UUID = z.regexes.uuid();
const DATETIME = z.regexes.datetime({ offset: true });

/** A plain object as JSON.parse makes it; an own `__proto__` key is one zod would drop. */
function isObject(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.getPrototypeOf(v) === Object.prototype &&
    !Object.prototype.hasOwnProperty.call(v, '__proto__')
  );
}

function isText(v: unknown, min: number, max: number): v is string {
  return typeof v === 'string' && v.length >= min && v.length <= max;
}

function isCanonicalErrorJob(raw: unknown): raw is ErrorJob {
  if (!isObject(raw) || raw.kind !== 'error' || raw.v !== 1) return false;
  let keys = 0;
  for (const _ in raw) keys++;
  return (
    keys === 5 &&
    typeof raw.projectId === 'string' &&
    UUID.test(raw.projectId) &&
    typeof raw.receivedAt === 'string' &&
    DATETIME.test(raw.receivedAt) &&
    isCanonicalErrorEvent(raw.event)
  );
}

/** True when `errorEventSchema.extend({ eventId: uuid })` would return `e` as it is. */
function isCanonicalErrorEvent(e: unknown): boolean {
  if (!isObject(e)) return false;
  for (const key in e) {
    const v = e[key];
    let ok: boolean;
    switch (key) {
      case 'eventId':
        ok = typeof v === 'string' && UUID.test(v);
        break;
      case 'message':
      case 'logMessage':
        ok = isText(v, 0, MAX_EVENT_MESSAGE_CHARS);
        break;
      case 'type':
        ok = isText(v, 1, MAX_TYPE_CHARS);
        break;
      case 'environment':
        ok = isText(v, 1, MAX_ENVIRONMENT_CHARS);
        break;
      case 'level':
        ok = LEVELS.includes(v as (typeof LEVELS)[number]);
        break;
      case 'release':
        ok = isText(v, 1, MAX_RELEASE_CHARS);
        break;
      case 'stack':
        ok = isText(v, 0, MAX_STACK_CHARS);
        break;
      case 'fingerprint':
        // The schema turns a string into a one-entry array: a string (a job written by hand, a
        // replayed dead letter) is not canonical and goes through zod.
        ok =
          Array.isArray(v) &&
          v.length >= 1 &&
          v.length <= MAX_FINGERPRINT_ENTRIES &&
          v.every((f) => isText(f, 0, MAX_FINGERPRINT_ENTRY_CHARS));
        break;
      case 'tags':
        ok = isCanonicalTags(v);
        break;
      case 'context':
        ok = isObject(v);
        break;
      case 'user':
        ok =
          isObject(v) &&
          (v.id === undefined || isText(v.id, 0, MAX_USER_ID_CHARS)) &&
          (v.email === undefined || isText(v.email, 0, MAX_EMAIL_CHARS));
        break;
      case 'url':
        ok = isText(v, 0, MAX_URL_CHARS);
        break;
      case 'timestamp':
        ok = typeof v === 'string' && DATETIME.test(v);
        break;
      case 'handled':
        ok = typeof v === 'boolean';
        break;
      case 'sdk':
        ok =
          isObject(v) &&
          isText(v.name, 0, MAX_SDK_NAME_CHARS) &&
          isText(v.version, 0, MAX_SDK_VERSION_CHARS) &&
          Object.keys(v).length === 2;
        break;
      case 'frames':
        ok = Array.isArray(v) && v.length <= MAX_STRUCTURED_FRAMES && limitFrames(v) === v;
        break;
      // The evidence's normalizers return their input itself when it is already what they would
      // return: that identity is the canonical check (evidence/*.ts).
      case 'breadcrumbs':
        ok = Array.isArray(v) && limitBreadcrumbs(v).breadcrumbs === v;
        break;
      case 'causes':
        ok = Array.isArray(v) && limitCauses(v, true) === v;
        break;
      case 'contextLines':
        ok = Array.isArray(v) && limitContextLines(v) === v;
        break;
      case 'request':
        ok = isObject(v) && requestOf(v) === v;
        break;
      default:
        ok = false; // zod would drop an unknown key
    }
    if (!ok) return false;
  }
  return (
    typeof e.eventId === 'string' &&
    typeof e.message === 'string' &&
    typeof e.type === 'string' &&
    typeof e.environment === 'string'
  );
}

function isCanonicalTags(v: unknown): boolean {
  if (!isObject(v)) return false;
  let n = 0;
  for (const key in v) {
    if (++n > MAX_TAGS || key.length < 1 || key.length > MAX_TAG_KEY_CHARS || !isText(v[key], 0, MAX_TAG_VALUE_CHARS))
      return false;
  }
  return true;
}

const JOB_HEAD_PROJECT = /^\{"v":\d+,"kind":"[a-z_]+","projectId":"([0-9a-fA-F-]{36})"/;

/**
 * The project a queued job belongs to, read from its payload without decoding it: every job the
 * edges encode starts `{"v":…,"kind":…,"projectId":"<uuid>"` (`jobHead`, and the object literals
 * passed to `encodeJob`), so the first bytes say it. Anything else is parsed; a payload with no
 * project (or no JSON) answers undefined. The Redis queue shards by it (decision 068).
 */
export function jobProjectId(payload: string | Buffer): string | undefined {
  const head = typeof payload === 'string' ? payload.slice(0, 120) : payload.toString('latin1', 0, 120);
  const m = JOB_HEAD_PROJECT.exec(head);
  if (m) return m[1];
  try {
    const parsed = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8')) as {
      projectId?: unknown;
    };
    return typeof parsed?.projectId === 'string' ? parsed.projectId : undefined;
  } catch {
    return undefined;
  }
}
