import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import type { Queue } from '../queue';
import { registerIngestCors } from './cors';
import { registerErrorRoute } from './error.route';
import { registerFeedbackRoute } from './feedback.route';
import { registerJsonBodyParser } from './json-body';
import type { KeyCache } from './key-cache';
import { registerLogRoute } from './log.route';
import type { IngestGate } from './quota';
import { registerUploadRoutes } from './uploads.route';
import { registerVitalsRoute } from './vitals.route';
import { ingestErrorHandler } from './wire-errors';
export { MAX_EVENT_BYTES } from './limits';

export interface IngestDeps {
  queue: Queue;
  keys: KeyCache;
  /** For the upload-token routes (source maps, releases), which write synchronously. */
  ds: DataSource;
  /** Rate limits and event quotas (DESIGN §6); without one, ingest admits everything. */
  gate?: IngestGate;
}

/** Mounts `/ingest/*` on a fastify instance (encapsulated: its error handler is its own). */
export async function ingestPlugin(app: FastifyInstance, deps: IngestDeps): Promise<void> {
  await app.register(
    async (scope) => {
      scope.setErrorHandler(ingestErrorHandler);
      // JSON only (DESIGN §4): without this fastify would hand text/plain bodies over as strings.
      scope.removeContentTypeParser('text/plain');
      // fastify's JSON parser, keeping the text too (`request.rawJsonBody`).
      registerJsonBodyParser(scope);
      scope.setNotFoundHandler((_request, reply) =>
        reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'no such ingest endpoint' } }),
      );
      registerIngestCors(scope);
      registerErrorRoute(scope, deps);
      registerLogRoute(scope, deps);
      registerVitalsRoute(scope, deps);
      registerFeedbackRoute(scope, deps);
      registerUploadRoutes(scope, deps);
    },
    { prefix: '/ingest' },
  );
}
