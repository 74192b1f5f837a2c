import { randomUUID } from 'node:crypto';
import { encodeJob, feedbackSchema, scrubberFor, type Clock } from '@tracker/core';
import { receivedAtNow } from './received-at';
import type { FastifyInstance } from 'fastify';
import type { Queue } from '../queue';
import { authenticateDsn } from './authenticate-dsn';
import type { KeyCache } from './key-cache';
import { MAX_EVENT_BYTES } from './limits';
import { parseBody } from './parse-body';
import type { IngestGate } from '../quota';

/**
 * `POST /ingest/feedback`: what a user wrote, naming the event it is about. Enqueued like
 * everything else; the worker links it to the event's issue, whichever of the two lands first.
 */
export function registerFeedbackRoute(
  app: FastifyInstance,
  deps: { queue: Queue; keys: KeyCache; gate?: IngestGate; clock?: Clock },
): void {
  app.post('/feedback', { bodyLimit: MAX_EVENT_BYTES }, async (request, reply) => {
    const key = await authenticateDsn(request, deps.keys);
    deps.queue.checkBacklog?.();
    // Scrubbed before anything else sees it (docs/privacy.md).
    const body = scrubberFor(key.privacy).feedback(parseBody(feedbackSchema, request.body));
    // Feedback does not count toward the event quota (docs/quotas.md); the key's rate limit applies.
    const admitted = deps.gate?.admit(key, null);
    if (admitted) await admitted;
    const feedback = { ...body, id: body.id ?? randomUUID() };
    await deps.queue.enqueue([
      encodeJob({ v: 1, kind: 'feedback', projectId: key.projectId, receivedAt: receivedAtNow(deps.clock), feedback }),
    ]);
    return reply.code(202).send({ id: feedback.id });
  });
}
