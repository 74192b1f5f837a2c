import { randomUUID } from 'node:crypto';
import { AppError, describeZodError, encodeJob, errorEventSchema } from '@tracker/core';
import type { FastifyInstance } from 'fastify';
import type { Queue } from '../queue';
import { authenticateDsn } from './authenticate-dsn';
import type { KeyCache } from './key-cache';
import { MAX_EVENT_BYTES } from './limits';

/**
 * `POST /ingest/error`: authenticate, validate, enqueue, answer 202. No database write on
 * this path; the worker does the rest.
 */
export function registerErrorRoute(app: FastifyInstance, deps: { queue: Queue; keys: KeyCache }): void {
  app.post('/error', { bodyLimit: MAX_EVENT_BYTES }, async (request, reply) => {
    const key = await authenticateDsn(request, deps.keys);
    if (request.body === null || typeof request.body !== 'object' || Array.isArray(request.body)) {
      throw new AppError('BAD_USER_INPUT', 'body: must be a JSON object');
    }
    const parsed = errorEventSchema.safeParse(request.body);
    if (!parsed.success) throw new AppError('BAD_USER_INPUT', describeZodError(parsed.error));
    const event = { ...parsed.data, eventId: parsed.data.eventId ?? randomUUID() };
    await deps.queue.enqueue([
      encodeJob({ v: 1, kind: 'error', projectId: key.projectId, receivedAt: new Date().toISOString(), event }),
    ]);
    return reply.code(202).send({ id: event.eventId });
  });
}
