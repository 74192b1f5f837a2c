import { randomUUID } from 'node:crypto';
import { encodeJob, errorEventSchema } from '@tracker/core';
import type { FastifyInstance } from 'fastify';
import type { Queue } from '../queue';
import { authenticateDsn } from './authenticate-dsn';
import type { KeyCache } from './key-cache';
import { MAX_EVENT_BYTES } from './limits';
import { parseBody } from './parse-body';

/**
 * `POST /ingest/error`: authenticate, validate, enqueue, answer 202. No database write on
 * this path; the worker does the rest.
 */
export function registerErrorRoute(app: FastifyInstance, deps: { queue: Queue; keys: KeyCache }): void {
  app.post('/error', { bodyLimit: MAX_EVENT_BYTES }, async (request, reply) => {
    const key = await authenticateDsn(request, deps.keys);
    const body = parseBody(errorEventSchema, request.body);
    // The event quota check (DESIGN §6) goes here, once plans are enforced.
    // Assigned, not spread into a copy: this runs on every accepted event.
    const event = Object.assign(body, { eventId: body.eventId ?? randomUUID() });
    await deps.queue.enqueue([
      encodeJob({ v: 1, kind: 'error', projectId: key.projectId, receivedAt: new Date().toISOString(), event }),
    ]);
    return reply.code(202).send({ id: event.eventId });
  });
}
