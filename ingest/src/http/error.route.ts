import { randomUUID } from 'node:crypto';
import { encodeJob, encodeJobBytes, errorEventSchema, type ErrorEvent, type ErrorJob } from '@tracker/core';
import type { FastifyInstance } from 'fastify';
import type { Queue, QueuePayload } from '../queue';
import { authenticateDsn } from './authenticate-dsn';
import { withStringField } from './canonical-body';
import { isCanonicalErrorEvent } from './error-event.canonical';
import type { KeyCache } from './key-cache';
import { MAX_EVENT_BYTES } from './limits';
import { parseBody } from './parse-body';
import type { IngestGate } from './quota';

/**
 * An error event's queue payload and id, from the parsed body and (when the framework kept it)
 * the text it came from. Throws `BAD_USER_INPUT` naming the field. Shared by the fastify route
 * and the fast path (`fast-path.ts`), so both accept and refuse exactly the same bodies.
 *
 * `bytes`, when given, are the body as received and `text` their UTF-8 decoding: a canonical
 * body is then enqueued as those bytes (`encodeJobBytes`), which saves encoding it again.
 */
export function prepareErrorJob(
  projectId: string,
  body: unknown,
  text: string | undefined,
  bytes?: Buffer,
): { payload: QueuePayload; eventId: string } {
  const receivedAt = new Date().toISOString();
  let event: ErrorEvent & { eventId: string };
  if (text !== undefined && isCanonicalErrorEvent(body)) {
    // Already exactly what the schema would return (most SDK events): enqueue the body as
    // received, with the event id added when the client sent none. No zod, no re-serializing.
    const given = body.eventId;
    event = Object.assign(body, { eventId: given ?? randomUUID() });
    const job: ErrorJob = { v: 1, kind: 'error', projectId, receivedAt, event };
    const payload =
      bytes !== undefined
        ? encodeJobBytes(job, bytes, given === undefined ? { name: 'eventId', value: event.eventId } : undefined)
        : encodeJob(job, given === undefined ? withStringField(text, 'eventId', event.eventId) : text);
    return { payload, eventId: event.eventId };
  }
  const parsed = parseBody(errorEventSchema, body);
  // Assigned, not spread into a copy: this runs on every accepted event.
  event = Object.assign(parsed, { eventId: parsed.eventId ?? randomUUID() });
  return { payload: encodeJob({ v: 1, kind: 'error', projectId, receivedAt, event }), eventId: event.eventId };
}

/**
 * `POST /ingest/error`: authenticate, validate, enqueue, answer 202. No database write on
 * this path; the worker does the rest. Most requests never get here: the fast path in front of
 * fastify takes those it can (`fast-path.ts`); this route is the reference for everything else.
 */
export function registerErrorRoute(
  app: FastifyInstance,
  deps: { queue: Queue; keys: KeyCache; gate?: IngestGate },
): void {
  app.post('/error', { bodyLimit: MAX_EVENT_BYTES }, async (request, reply) => {
    const key = await authenticateDsn(request, deps.keys);
    const { payload, eventId } = prepareErrorJob(key.projectId, request.body, request.rawJsonBody);
    // Rate limit and event quota (DESIGN §6), after validation: a 400 consumes nothing.
    const admitted = deps.gate?.admit(key, 'events');
    if (admitted) await admitted; // most requests are decided synchronously: no extra turn
    await deps.queue.enqueue([payload]);
    return reply.code(202).send({ id: eventId });
  });
}
