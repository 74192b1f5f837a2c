import { randomUUID } from 'node:crypto';
import { encodeJob, logSchema, scrubberFor, type Clock } from '@tracker/core';
import { receivedAtNow } from './received-at';
import type { FastifyInstance } from 'fastify';
import type { Queue } from '../queue';
import { authenticateDsn } from './authenticate-dsn';
import type { KeyCache } from './key-cache';
import { MAX_EVENT_BYTES } from './limits';
import { admitOnce } from './error.route';
import { parseBody } from './parse-body';
import type { RecentIds } from './recent-ids';
import type { IngestGate } from '../quota';

/** `POST /ingest/log`: one structured log record; enqueued, answered 202 with its id. */
export function registerLogRoute(
  app: FastifyInstance,
  deps: { queue: Queue; keys: KeyCache; gate?: IngestGate; recent?: RecentIds; clock?: Clock },
): void {
  app.post('/log', { bodyLimit: MAX_EVENT_BYTES }, async (request, reply) => {
    const key = await authenticateDsn(request, deps.keys);
    deps.queue.checkBacklog?.();
    // Scrubbed before anything else sees it (docs/privacy.md).
    const body = scrubberFor(key.privacy).log(parseBody(logSchema, request.body));
    // The key's rate limit applies; logs have their own monthly cap, not the event quota (docs/quotas.md).
    await admitOnce(deps, key, 'logs', body.id);
    const log = { ...body, id: body.id ?? randomUUID() };
    await deps.queue.enqueue([
      encodeJob({ v: 1, kind: 'log', projectId: key.projectId, receivedAt: receivedAtNow(deps.clock), log }),
    ]);
    return reply.code(202).send({ id: log.id });
  });
}
