import { randomUUID } from 'node:crypto';
import {
  AppError,
  encodeJob,
  feedbackSchema,
  isObject,
  logSchema,
  mapSentryEvent,
  mapSentryFeedback,
  mapSentryLogs,
  matchesDiscardKeys,
  queuedErrorEventSchema,
  scrubberFor,
  sentryIdOf,
  type KeyInfo,
  type Clock,
} from '@tracker/core';
import { receivedAtNow } from '../http/received-at';
import { admitOnce, DISCARDED_ISSUE } from '../http/error.route';
import type { IngestCounters } from '../http/ingest-counters';
import { parseBody } from '../http/parse-body';
import { AdmissionRefusal, type IngestGate } from '../quota';
import type { RecentIds } from '../http/recent-ids';
import type { QueuePayload } from '../queue';
import { isCanonicalQueuedErrorEvent } from '../http/error-event.canonical';
import { parseSentryJson, readSentryJson, type EnvelopeItem } from './parse-envelope';

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
}

/**
 * The items Tracker keeps, mapped onto our bodies and through the same steps as `/ingest/*`:
 * the schema (normalization and limits), PII scrubbing with the project's settings, the gate
 * (rate limit, then the event or log quota; feedback is free), one job each. Every other item
 * type (sessions, client reports, transactions, spans, attachments, profiles, replays, check-ins,
 * unknown types) is read past and dropped. A bad item is dropped alone.
 */
export async function takeSentryItems(
  key: KeyInfo,
  items: EnvelopeItem[],
  envelopeHeader: Record<string, unknown>,
  deps: TakeDeps,
): Promise<TakenItems> {
  const taken: TakenItems = { payloads: [], refusals: [], problems: [] };
  const receivedAt = receivedAtNow(deps.clock);
  const scrubber = scrubberFor(key.privacy);
  const { projectId } = key;
  for (const [index, item] of items.entries()) {
    const what = `item ${index + 1} (${item.type || 'no type'})`;
    try {
      switch (item.type) {
        case 'event': {
          const { value: raw, plain } = payloadObject(item, what);
          const { payload, eventId } = await takeEvent(key, { raw, plain }, envelopeHeader.event_id, receivedAt, deps);
          if (payload) taken.payloads.push(payload);
          taken.eventId ??= eventId;
          break;
        }
        case 'feedback':
        case 'user_report': {
          const body = scrubber.feedback(
            parseBody(feedbackSchema, mapSentryFeedback(payloadObject(item, what).value, item.type)),
          );
          // Free of the event quota, as our own feedback is (docs/quotas.md); the key's rate limit applies.
          const admitted = deps.gate?.admit(key, null);
          if (admitted) await admitted;
          const feedback = { ...body, id: body.id ?? randomUUID() };
          taken.payloads.push(encodeJob({ v: 1, kind: 'feedback', projectId, receivedAt, feedback }));
          break;
        }
        case 'log':
        case 'otel_log': {
          for (const record of mapSentryLogs(parseSentryJson(item.payload, what), item.type)) {
            try {
              const log = scrubber.log(parseBody(logSchema, record));
              await admitOnce(deps, key, 'logs', undefined); // one unit per record
              taken.payloads.push(
                encodeJob({ v: 1, kind: 'log', projectId, receivedAt, log: { ...log, id: randomUUID() } }),
              );
            } catch (err) {
              note(taken, err, `${what}: log record`);
            }
          }
          break;
        }
        default:
          break; // read past and dropped (docs/sentry-compatibility.md)
      }
    } catch (err) {
      note(taken, err, what);
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
  const parsed = scrubberFor(key.privacy).errorEvent(valid);
  const clientId = parsed.eventId;
  const event = Object.assign(parsed, { eventId: clientId ?? randomUUID() });
  // The answer gives the id back as the client wrote it: 32 hex, or dashed if it sent a UUID.
  const sent = typeof raw.event_id === 'string' ? raw.event_id : typeof headerEventId === 'string' ? headerEventId : '';
  const answerId = sent.includes('-') ? event.eventId : sentryIdOf(event.eventId);
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
