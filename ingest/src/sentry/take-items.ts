import { randomUUID } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import {
  AppError,
  encodeJob,
  feedbackSchema,
  isObject,
  logSchema,
  mapSentryEvent,
  mapSentryFeedback,
  mapSentryCheckIn,
  mapSentryLogs,
  inboundFilterFor,
  matchesDiscardKeys,
  queuedErrorEventSchema,
  scrubberFor,
  sentryIdOf,
  type KeyInfo,
  type Clock,
  type CheckInBody,
  type SessionBody,
  type SentryVitals,
} from '@tracker/core';
import type { CheckInLimiter } from '../monitors/check-in-limiter';
import { receivedAtNow } from '../http/received-at';
import { withHeaderUserAgent } from '../http/header-user-agent';
import { admitOnce, DISCARDED_ISSUE } from '../http/error.route';
import type { IngestCounters } from '../http/ingest-counters';
import { parseBody } from '../http/parse-body';
import { AdmissionRefusal, type IngestGate } from '../quota';
import type { RecentIds } from '../http/recent-ids';
import type { QueuePayload } from '../queue';
import { isCanonicalQueuedErrorEvent } from '../http/error-event.canonical';
import { parseSentryJson, readSentryJson, type EnvelopeItem } from './parse-envelope';
import { readSentrySession, takeSession } from './take-sessions';
import { readTracingItem, takeVitals } from './take-vitals';

/** What the items of one request came to. */
export interface TakenItems {
  /** Jobs to enqueue, in the order of the items. */
  payloads: QueuePayload[];
  /** The id of the first event taken, in the form the client sent it (32 hex unless dashed). */
  eventId?: string;
  /** Limits that refused an item (429 when nothing was taken, `X-Sentry-Rate-Limits` always). */
  refusals: AdmissionRefusal[];
  /** Items dropped as unreadable or invalid, the first named in a 400 when nothing was taken. */
  problems: AppError[];
}

export interface TakeDeps {
  gate?: IngestGate;
  recent?: RecentIds;
  /** The time stamped on what is received (default the wall clock). */
  clock?: Clock;
  /** Drops by reason, for /metrics. */
  counters?: IngestCounters;
  /** The request's User-Agent header: a browser SDK's event that lacks one gets it (decision 046). */
  userAgent?: string;
  /** Per-monitor check-in limit (issue 33); absent = none. */
  checkInLimiter?: CheckInLimiter;
}

/**
 * What one envelope may carry (docs/sentry-compatibility.md, "Limits"): at most this many
 * records to store — events, feedback and log records, each one job for the worker and one row
 * against the backlog bound. Sentry's SDKs send one event per envelope and flush logs 100 at a
 * time; past this the envelope is refused whole with 413, before any quota is spent, so one
 * public-key request can neither queue thousands of jobs nor hold the edge's thread for long.
 */
export const MAX_ENVELOPE_RECORDS = 1_000;

/** Records taken between two yields to the event loop. */
const YIELD_EVERY = 50;

/** An item read and mapped, not yet validated nor admitted; `what` names it in messages. */
type Candidate =
  | { what: string; kind: 'event'; raw: Record<string, unknown>; plain: boolean }
  | { what: string; kind: 'feedback'; body: unknown }
  | { what: string; kind: 'log'; record: unknown }
  | { what: string; kind: 'session'; session: SessionBody }
  | { what: string; kind: 'vitals'; vitals: SentryVitals }
  | { what: string; kind: 'check_in'; checkIn: CheckInBody };

/** The records an envelope's items hold, read (JSON) and mapped onto our bodies. */
export interface ReadItems {
  candidates: Candidate[];
  /** Items that could not be read, the first named in a 400 when nothing was taken. */
  problems: AppError[];
  /** The types of the items read past and dropped, for /metrics (`countDroppedItems`). */
  dropped: string[];
}

/**
 * Reads the items Tracker keeps (event, feedback, user_report, log, otel_log, session, sessions,
 * and the Web Vitals of page loads in transaction and span items) into records; every other item
 * is read past and its type noted in `dropped`. Throws 413 over MAX_ENVELOPE_RECORDS records, so the whole
 * envelope is refused before the gate. A bad item is noted and dropped alone.
 */
export function readSentryItems(items: EnvelopeItem[]): ReadItems {
  const read: ReadItems = { candidates: [], problems: [], dropped: [] };
  for (const [index, item] of items.entries()) {
    const what = `item ${index + 1} (${item.type || 'no type'})`;
    try {
      switch (item.type) {
        case 'event': {
          const { value: raw, plain } = payloadObject(item, what);
          read.candidates.push({ what, kind: 'event', raw, plain });
          break;
        }
        case 'feedback':
        case 'user_report':
          read.candidates.push({
            what,
            kind: 'feedback',
            body: mapSentryFeedback(payloadObject(item, what).value, item.type),
          });
          break;
        case 'log':
        case 'otel_log':
          for (const record of mapSentryLogs(parseSentryJson(item.payload, what), item.type)) {
            read.candidates.push({ what, kind: 'log', record });
          }
          break;
        case 'session':
        case 'sessions': // release health (decision 045)
          read.candidates.push({ what, kind: 'session', session: readSentrySession(item, item.type, what) });
          break;
        case 'check_in': // cron monitors (issue 33; docs/monitors.md)
          read.candidates.push({ what, kind: 'check_in', checkIn: mapSentryCheckIn(payloadObject(item, what).value) });
          break;
        case 'transaction':
        case 'span': {
          // Page loads' Web Vitals are kept (decision 046); other transactions and spans dropped.
          const vitals = readTracingItem(item, what);
          for (const v of vitals) read.candidates.push({ what, kind: 'vitals', vitals: v });
          if (vitals.length === 0) read.dropped.push(item.type);
          break;
        }
        default:
          read.dropped.push(item.type); // read past and dropped (docs/sentry-compatibility.md)
          break;
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      read.problems.push(err.message.startsWith('item ') ? err : new AppError(err.code, `${what}: ${err.message}`));
    }
    if (read.candidates.length > MAX_ENVELOPE_RECORDS) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `envelope: more than ${MAX_ENVELOPE_RECORDS} records to store (events, feedback and log records) in one envelope; send them in several`,
      );
    }
  }
  return read;
}

/**
 * The records read from an envelope, through the same steps as `/ingest/*`: the schema
 * (normalization and limits), PII scrubbing with the project's settings, the gate (rate limit,
 * then the event or log quota; feedback is free), one job each. A bad record is dropped alone.
 */
export async function takeSentryItems(
  key: KeyInfo,
  read: ReadItems,
  envelopeHeader: Record<string, unknown>,
  deps: TakeDeps,
): Promise<TakenItems> {
  const taken: TakenItems = { payloads: [], refusals: [], problems: [...read.problems] };
  const receivedAt = receivedAtNow(deps.clock);
  const scrubber = scrubberFor(key.privacy);
  const { projectId } = key;
  for (const [i, candidate] of read.candidates.entries()) {
    // A thousand records are ~0.1 s of CPU (a second on a loaded machine): in slices, so that
    // probes, other requests and (embedded) the worker's statements are answered in between.
    if (i > 0 && i % YIELD_EVERY === 0) await setImmediate();
    try {
      switch (candidate.kind) {
        case 'event': {
          const { payload, eventId } = await takeEvent(key, candidate, envelopeHeader.event_id, receivedAt, deps);
          if (payload) taken.payloads.push(payload);
          taken.eventId ??= eventId;
          break;
        }
        case 'feedback': {
          const body = scrubber.feedback(parseBody(feedbackSchema, candidate.body));
          // Free of the event quota, as our own feedback is (docs/quotas.md); the key's rate limit applies.
          const admitted = deps.gate?.admit(key, null);
          if (admitted) await admitted;
          const feedback = { ...body, id: body.id ?? randomUUID() };
          taken.payloads.push(encodeJob({ v: 1, kind: 'feedback', projectId, receivedAt, feedback }));
          break;
        }
        case 'vitals':
          taken.payloads.push(await takeVitals(key, candidate.vitals, receivedAt, deps));
          break;
        case 'log': {
          const log = scrubber.log(parseBody(logSchema, candidate.record));
          await admitOnce(deps, key, 'logs', undefined); // one unit per record
          taken.payloads.push(
            encodeJob({ v: 1, kind: 'log', projectId, receivedAt, log: { ...log, id: randomUUID() } }),
          );
          break;
        }
        case 'session':
          taken.payloads.push(await takeSession(key, candidate.session, receivedAt, deps.gate));
          break;
        case 'check_in': {
          // Free of the event quota (docs/monitors.md); the monitor's and the key's rate limits apply.
          deps.checkInLimiter?.admit(projectId, candidate.checkIn.slug);
          const admitted = deps.gate?.admit(key, null);
          if (admitted) await admitted;
          taken.payloads.push(encodeJob({ v: 1, kind: 'check_in', projectId, receivedAt, checkIn: candidate.checkIn }));
          break;
        }
      }
    } catch (err) {
      note(taken, err, candidate.kind === 'log' ? `${candidate.what}: log record` : candidate.what);
    }
  }
  return taken;
}

/**
 * One Sentry event (an `event` item, or a `/store/` body) as a queued error job; throws a 400
 * for one we cannot use, a 429 (`AdmissionRefusal`) when a limit refuses it. `plain` says the
 * payload's text had no NUL or surrogate escape (`readSentryJson`). `payload` is null for an
 * event of a discarded issue: dropped before the gate, answered as accepted.
 */
export async function takeEvent(
  key: KeyInfo,
  { raw, plain }: { raw: Record<string, unknown>; plain: boolean },
  headerEventId: unknown,
  receivedAt: string,
  deps: TakeDeps,
): Promise<{ payload: QueuePayload | null; eventId: string }> {
  const mapped = mapSentryEvent(raw, headerEventId);
  // Most SDK events map to what the schema would return unchanged: a compiled check (a few µs)
  // instead of zod's parse, which was a seventh of the envelope route's CPU
  // (docs/benchmarks.md). Anything else goes through zod for its cuts and its messages.
  const valid = plain && isCanonicalQueuedErrorEvent(mapped) ? mapped : parseBody(queuedErrorEventSchema, mapped);
  const parsed = withHeaderUserAgent(scrubberFor(key.privacy).errorEvent(valid), deps.userAgent);
  const clientId = parsed.eventId;
  const event = Object.assign(parsed, { eventId: clientId ?? randomUUID() });
  // The answer gives the id back as the client wrote it: 32 hex, or dashed if it sent a UUID.
  const sent = typeof raw.event_id === 'string' ? raw.event_id : typeof headerEventId === 'string' ? headerEventId : '';
  const answerId = sent.includes('-') ? event.eventId : sentryIdOf(event.eventId);
  // Inbound filters (issue 31), then discards: both before the gate, answered as accepted.
  const filtered = key.inboundFilters === undefined ? undefined : inboundFilterFor(key.inboundFilters, event);
  if (filtered !== undefined) {
    deps.counters?.filter(key.projectId, filtered);
    return { payload: null, eventId: answerId };
  }
  if (key.discardKeys !== undefined && matchesDiscardKeys(key.discardKeys, event)) {
    deps.counters?.discard(DISCARDED_ISSUE);
    return { payload: null, eventId: answerId };
  }
  await admitOnce(deps, key, 'events', clientId);
  const payload = encodeJob({ v: 1, kind: 'error', projectId: key.projectId, receivedAt, event });
  return { payload, eventId: answerId };
}

function payloadObject(item: EnvelopeItem, what: string): { value: Record<string, unknown>; plain: boolean } {
  const { value, plain } = readSentryJson(item.payload, what);
  if (!isObject(value)) throw new AppError('BAD_USER_INPUT', `${what}: must be a JSON object`);
  return { value, plain };
}

function note(taken: TakenItems, err: unknown, what: string): void {
  if (err instanceof AdmissionRefusal) taken.refusals.push(err);
  else if (err instanceof AppError) {
    const message = err.message.startsWith('item ') ? err.message : `${what}: ${err.message}`;
    taken.problems.push(new AppError(err.code, message, err.retryAfter));
  } else throw err;
}
