import { randomUUID } from 'node:crypto';
import {
  encodeJob,
  encodeJobBytes,
  errorEventSchema,
  inboundFilterFor,
  isPlainJsonText,
  matchesDiscardKeys,
  scrubberFor,
  type ErrorEvent,
  type ErrorJob,
  type InboundFilterName,
  type KeyInfo,
  type UsageMeter,
  type Clock,
} from '@tracker/core';
import { receivedAtNow } from './received-at';
import type { FastifyInstance } from 'fastify';
import type { Queue, QueuePayload } from '../queue';
import { authenticateDsn } from './authenticate-dsn';
import { withStringField } from './canonical-body';
import { isCanonicalErrorEvent } from './error-event.canonical';
import { withHeaderUserAgent } from './header-user-agent';
import type { KeyCache } from './key-cache';
import { MAX_EVENT_BYTES } from './limits';
import { parseBody } from './parse-body';
import type { IngestGate } from '../quota';
import type { RecentIds } from './recent-ids';
import type { IngestCounters } from './ingest-counters';

/** The reason an event answered 202 was dropped: its issue is discarded (`/metrics`). */
export const DISCARDED_ISSUE = 'discarded_issue';

/**
 * An error event's queue payload and id, from the parsed body and (when the framework kept it)
 * the text it came from. Throws `BAD_USER_INPUT` naming the field. Shared by the fastify route
 * and the fast path (`fast-path.ts`), so both accept and refuse exactly the same bodies.
 *
 * `bytes`, when given, are the body as received and `text` their UTF-8 decoding: a canonical
 * body is then enqueued as those bytes (`encodeJobBytes`), which saves encoding it again.
 *
 * Secrets and personal data are scrubbed here with the key's project settings (docs/privacy.md),
 * so nothing unscrubbed is queued. A canonical body that the scrubber changes is encoded from
 * the scrubbed copy instead of the bytes received; so is a browser SDK's event without a
 * `context.userAgent` when the request has a `userAgent` header (header-user-agent.ts).
 *
 * `discarded` says the event groups into an issue the project discards (only computed for
 * projects with discards, `key.discardKeys`): the caller answers 202 and drops it, before the
 * quota gate, so it is neither stored nor counted (docs/decisions/023-unmerge-snooze-discard.md).
 */
export function prepareErrorJob(
  key: Pick<KeyInfo, 'projectId' | 'privacy' | 'discardKeys' | 'inboundFilters'>,
  body: unknown,
  text: string | undefined,
  receivedAt: string,
  bytes?: Buffer,
  userAgent?: string,
): PreparedErrorJob {
  const { projectId } = key;
  const discards = key.discardKeys;
  const scrubber = scrubberFor(key.privacy);
  let event: ErrorEvent & { eventId: string };
  // A `\u0000` or surrogate escape in the text: the body may need mending, so zod's path.
  if (text !== undefined && isPlainJsonText(text) && isCanonicalErrorEvent(body)) {
    const given = body.eventId;
    const scrubbed = withHeaderUserAgent(scrubber.errorEvent(body), userAgent);
    if (scrubbed !== body) {
      // Something was filtered or added: the bytes received are not what is queued.
      event = Object.assign(scrubbed, { eventId: given ?? randomUUID() });
      const payload = encodeJob({ v: 1, kind: 'error', projectId, receivedAt, event });
      const discarded = discards !== undefined && matchesDiscardKeys(discards, event);
      return {
        payload,
        eventId: event.eventId,
        clientId: given !== undefined,
        discarded,
        filtered: filterOf(key, event),
      };
    }
    // Already exactly what the schema would return (most SDK events): enqueue the body as
    // received, with the event id added when the client sent none. No zod, no re-serializing.
    event = Object.assign(body, { eventId: given ?? randomUUID() });
    const job: ErrorJob = { v: 1, kind: 'error', projectId, receivedAt, event };
    const payload =
      bytes !== undefined
        ? encodeJobBytes(job, bytes, given === undefined ? { name: 'eventId', value: event.eventId } : undefined)
        : encodeJob(job, given === undefined ? withStringField(text, 'eventId', event.eventId) : text);
    const discarded = discards !== undefined && matchesDiscardKeys(discards, event);
    return {
      payload,
      eventId: event.eventId,
      clientId: given !== undefined,
      discarded,
      filtered: filterOf(key, event),
    };
  }
  const parsed = withHeaderUserAgent(scrubber.errorEvent(parseBody(errorEventSchema, body)), userAgent);
  const clientId = parsed.eventId !== undefined;
  // Assigned, not spread into a copy: this runs on every accepted event.
  event = Object.assign(parsed, { eventId: parsed.eventId ?? randomUUID() });
  return {
    payload: encodeJob({ v: 1, kind: 'error', projectId, receivedAt, event }),
    eventId: event.eventId,
    clientId,
    discarded: discards !== undefined && matchesDiscardKeys(discards, event),
    filtered: filterOf(key, event),
  };
}

export interface PreparedErrorJob {
  payload: QueuePayload;
  eventId: string;
  clientId: boolean;
  discarded: boolean;
  /**
   * The project's inbound filter that drops this event (issue 31), or undefined: the caller
   * answers 202 and counts it (`IngestCounters.filter`) before the quota gate, as for a discard.
   */
  filtered: InboundFilterName | undefined;
}

/** Projects without filters (`inboundFilters` absent) pay one property test. */
function filterOf(key: Pick<KeyInfo, 'inboundFilters'>, event: ErrorEvent): InboundFilterName | undefined {
  return key.inboundFilters === undefined ? undefined : inboundFilterFor(key.inboundFilters, event);
}

/**
 * `prepareErrorJob` for a body a mapper built rather than JSON text (the OTLP door's exception
 * events): the canonical check stands in for zod as it does for the error door's plain-JSON
 * bodies, because core/src/otlp's readers already mend NUL and lone surrogates as they read.
 * Anything the check does not take goes through zod, so both accept and store the same.
 */
export function prepareMappedErrorJob(
  key: Pick<KeyInfo, 'projectId' | 'privacy' | 'discardKeys' | 'inboundFilters'>,
  body: unknown,
  receivedAt: string,
): PreparedErrorJob {
  if (!isCanonicalErrorEvent(body)) return prepareErrorJob(key, body, undefined, receivedAt);
  const given = body.eventId;
  const scrubbed = scrubberFor(key.privacy).errorEvent(body);
  const event = Object.assign(scrubbed, { eventId: given ?? randomUUID() });
  return {
    payload: encodeJob({ v: 1, kind: 'error', projectId: key.projectId, receivedAt, event }),
    eventId: event.eventId,
    clientId: given !== undefined,
    discarded: key.discardKeys !== undefined && matchesDiscardKeys(key.discardKeys, event),
    filtered: filterOf(key, event),
  };
}

/**
 * `POST /ingest/error`: authenticate, validate, enqueue, answer 202. No database write on
 * this path; the worker does the rest. Most requests never get here: the fast path in front of
 * fastify takes those it can (`fast-path.ts`); this route is the reference for everything else.
 */
export function registerErrorRoute(
  app: FastifyInstance,
  deps: {
    queue: Queue;
    keys: KeyCache;
    gate?: IngestGate;
    recent?: RecentIds;
    clock?: Clock;
    counters?: IngestCounters;
  },
): void {
  app.post('/error', { bodyLimit: MAX_EVENT_BYTES }, async (request, reply) => {
    const key = await authenticateDsn(request, deps.keys);
    deps.queue.checkBacklog?.();
    const { payload, eventId, clientId, discarded, filtered } = prepareErrorJob(
      key,
      request.body,
      request.rawJsonBody,
      receivedAtNow(deps.clock),
      undefined,
      request.headers['user-agent'],
    );
    // Dropped before the quota gate: filtered events use no quota (docs/quotas.md).
    if (filtered !== undefined) {
      deps.counters?.filter(key.projectId, filtered);
      return reply.code(202).send({ id: eventId });
    }
    if (discarded) {
      deps.counters?.discard(DISCARDED_ISSUE);
      return reply.code(202).send({ id: eventId });
    }
    await admitOnce(deps, key, 'events', clientId ? eventId : undefined);
    await deps.queue.enqueue([payload]);
    return reply.code(202).send({ id: eventId });
  });
}

/**
 * Rate limit and quota (docs/quotas.md), after validation (a 400 consumes nothing). A client id this
 * process admitted lately is a retry of the same item: rate-limited, not counted again.
 */
export function admitOnce(
  deps: { gate?: IngestGate; recent?: RecentIds },
  key: KeyInfo,
  meter: UsageMeter,
  clientId: string | undefined,
): void | Promise<void> {
  if (!deps.gate) return;
  const repeat = clientId !== undefined && deps.recent?.has(key.projectId, clientId) === true;
  const admitted = deps.gate.admit(key, repeat ? null : meter);
  if (clientId === undefined || !deps.recent || repeat) return admitted;
  const recent = deps.recent;
  // Most requests are decided synchronously: no extra turn.
  if (!admitted) return recent.remember(key.projectId, clientId);
  return admitted.then(() => recent.remember(key.projectId, clientId));
}
