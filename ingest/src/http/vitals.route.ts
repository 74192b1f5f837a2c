import { randomUUID } from 'node:crypto';
import { encodeJob, vitalsSchema, type Clock } from '@tracker/core';
import { receivedAtNow } from './received-at';
import type { FastifyInstance } from 'fastify';
import type { Queue } from '../queue';
import { authenticateDsn } from './authenticate-dsn';
import type { KeyCache } from './key-cache';
import { MAX_EVENT_BYTES } from './limits';
import { parseBody } from './parse-body';
import type { IngestGate } from '../quota';

/** `POST /ingest/vitals`: one page view's Web Vitals; enqueued, answered 202 with its id. */
export function registerVitalsRoute(
  app: FastifyInstance,
  deps: { queue: Queue; keys: KeyCache; gate?: IngestGate; clock?: Clock },
): void {
  app.post('/vitals', { bodyLimit: MAX_EVENT_BYTES }, async (request, reply) => {
    const key = await authenticateDsn(request, deps.keys);
    deps.queue.checkBacklog?.();
    const body = parseBody(vitalsSchema, request.body);
    // Rate limit and event quota: vitals reports count (docs/quotas.md).
    const admitted = deps.gate?.admit(key, 'events');
    if (admitted) await admitted; // most requests are decided synchronously: no extra turn
    const vitals = { ...body, id: body.id ?? randomUUID() };
    await deps.queue.enqueue([
      encodeJob({ v: 1, kind: 'vitals', projectId: key.projectId, receivedAt: receivedAtNow(deps.clock), vitals }),
    ]);
    return reply.code(202).send({ id: vitals.id });
  });
}
