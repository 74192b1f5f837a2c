import { AppError, httpStatusFor } from '@tracker/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ingestFailureLog } from '../http/log-throttle';
import { registerArtifactRoutes } from './artifacts.routes';
import { registerInfoRoute } from './info.route';
import { registerReleaseRoutes } from './releases.routes';
import { createSentryApi, sentryApiPaths, type SentryApiDeps, type SentryApiRoutes } from './sentry-api-route';

/**
 * The route files of `/api/0/`. A new file exports a `SentryApiRoutes` function and is added
 * here; its endpoints get the token check, the JSON 404 and the `{"detail"}` errors for free.
 */
const ROUTE_FILES: SentryApiRoutes[] = [registerInfoRoute, registerReleaseRoutes, registerArtifactRoutes];

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The subset of Sentry's web API that sentry-cli and the bundler plugins call (issue 30,
 * docs/sentry-compatibility.md), under `/api/0/` and under the public URL's path prefix, on
 * upload tokens. Errors answer Sentry's shape, `{"detail": "…"}`, which sentry-cli prints;
 * anything else under `/api/0/` is a JSON 404, never the dashboard's HTML page.
 */
export async function sentryApiPlugin(app: FastifyInstance, deps: SentryApiDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.setErrorHandler(sentryApiErrorHandler);
    // sentry-cli sends JSON; a body of another type is refused with a clear 415 by fastify.
    scope.removeContentTypeParser('text/plain');
    const api = createSentryApi(scope, deps);
    for (const register of ROUTE_FILES) register(api);
    // Static routes win over the wildcard, so this answers only what no route file claims.
    for (const url of sentryApiPaths(deps.pathPrefix, '/*')) {
      scope.route({ method: [...ALL_METHODS], url, handler: notFound });
    }
    // `GET /api/0/` is the info route; the other methods on the bare root.
    for (const url of sentryApiPaths(deps.pathPrefix, '/')) {
      scope.route({ method: ALL_METHODS.filter((m) => m !== 'GET' && m !== 'HEAD'), url, handler: notFound });
    }
  });
}

async function notFound(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  return reply
    .code(404)
    .send({ detail: `${request.method} ${request.url.split('?')[0]} is not part of Tracker's Sentry API subset` });
}

/** Where errors on `/api/0/` become answers: Sentry's `{"detail"}` with our status mapping. */
export function sentryApiErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof AppError) return reply.code(httpStatusFor(error.code)).send({ detail: error.message });
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send({ detail: 'body too large' });
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return reply.code(415).send({ detail: 'Content-Type must be application/json' });
  }
  if (error instanceof SyntaxError || (error.statusCode !== undefined && error.statusCode < 500)) {
    return reply.code(error.statusCode ?? 400).send({ detail: `malformed request: ${error.message}` });
  }
  const held = ingestFailureLog.take();
  if (held !== undefined) request.log.error({ err: error, heldBack: held }, 'sentry api request failed');
  return reply.code(503).header('retry-after', '5').send({ detail: 'could not complete the request; retry later' });
}
