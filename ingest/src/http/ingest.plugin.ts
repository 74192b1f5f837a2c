import type { FastifyInstance } from 'fastify';
import type { Clock } from '@tracker/core';
import { refusalCode, type IngestCounters } from './ingest-counters';
import type { DataSource } from 'typeorm';
import type { Queue } from '../queue';
import { registerContentDecoding } from './content-encoding';
import { registerIngestCors } from './cors';
import { registerErrorRoute } from './error.route';
import { registerFeedbackRoute } from './feedback.route';
import { registerJsonBodyParser } from './json-body';
import type { KeyCache } from './key-cache';
import { registerLogRoute } from './log.route';
import type { IngestGate } from '../quota';
import type { RecentIds } from './recent-ids';
import { registerUploadRoutes } from './uploads.route';
import { registerVitalsRoute } from './vitals.route';
import { registerSentryRoutes } from '../sentry/sentry.routes';
import { registerOtlpRoutes } from '../otlp/otlp.routes';
import { CheckInLimiter } from '../monitors/check-in-limiter';
import { registerMonitorRoute } from '../monitors/monitor.route';
import { ingestErrorHandler } from './wire-errors';
import { startFilterCountFlush } from './filter-counts';
export { MAX_EVENT_BYTES } from './limits';

export interface IngestDeps {
  queue: Queue;
  keys: KeyCache;
  /** For the upload-token routes (source maps, releases), which write synchronously. */
  ds: DataSource;
  /** Rate limits and event quotas (docs/quotas.md); without one, ingest admits everything. */
  gate?: IngestGate;
  /** Refusals by code, for /metrics. */
  counters?: IngestCounters;
  /** Client ids admitted lately: shared with the fast path so a retry is not counted twice. */
  recent?: RecentIds;
  /**
   * The path of `TRACKER_PUBLIC_URL` (`/tracker` for `https://example.com/tracker`), where
   * Sentry's SDKs send (`<prefix>/api/<number>/envelope/`), or '' .
   */
  publicPathPrefix?: string;
  /** The time stamped on what is received (default the wall clock). */
  clock?: Clock;
  /** Per-monitor check-in limit, shared by the ping URL and Sentry's check_in items. */
  checkInLimiter?: CheckInLimiter;
}

/**
 * Mounts `/ingest/*` on a fastify instance (encapsulated: its error handler is its own), and
 * Sentry's `/api/<number>/envelope/` and `/store/` (a scope of their own: any content type), and
 * OTLP/HTTP's `/v1/logs` and `/v1/traces`.
 */
export async function ingestPlugin(app: FastifyInstance, deps: IngestDeps): Promise<void> {
  if (deps.counters) {
    // What inbound filters dropped, queued every few seconds and at close (before the queue closes).
    const flusher = startFilterCountFlush(deps.counters, deps.queue, {
      clock: deps.clock,
      log: (message, data) => app.log.warn(data, message),
    });
    app.addHook('onClose', () => flusher.stop());
  }

  const limiter = deps.checkInLimiter ?? new CheckInLimiter(undefined, deps.clock);
  await registerSentryRoutes(app, { ...deps, checkInLimiter: limiter, pathPrefix: deps.publicPathPrefix });
  // OpenTelemetry's OTLP/HTTP (`/v1/logs`, `/v1/traces`): a door of its own (docs/opentelemetry.md).
  await registerOtlpRoutes(app, { ...deps, pathPrefix: deps.publicPathPrefix });
  await app.register(
    async (scope) => {
      scope.setErrorHandler(ingestErrorHandler);
      // JSON only (docs/wire.md): without this fastify would hand text/plain bodies over as strings.
      scope.removeContentTypeParser('text/plain');
      // fastify's JSON parser, keeping the text too (`request.rawJsonBody`).
      registerJsonBodyParser(scope);
      // gzip, deflate and br bodies, decoded within each route's body limit (docs/ingest.md).
      registerContentDecoding(scope);
      scope.setNotFoundHandler((_request, reply) =>
        reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'no such ingest endpoint' } }),
      );
      const counters = deps.counters;
      if (counters) {
        scope.addHook('onSend', async (_request, reply, payload) => {
          if (reply.statusCode >= 400) counters.refuse(refusalCode(reply.statusCode, payload));
          return payload;
        });
      }
      registerIngestCors(scope);
      registerErrorRoute(scope, deps);
      registerLogRoute(scope, deps);
      registerVitalsRoute(scope, deps);
      registerFeedbackRoute(scope, deps);
      registerUploadRoutes(scope, deps);
      // Cron check-ins (docs/monitors.md): a scope of its own, for its any-body parser.
      await scope.register(async (monitors) => registerMonitorRoute(monitors, { ...deps, limiter }));
    },
    { prefix: '/ingest' },
  );
}
