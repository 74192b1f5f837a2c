import { requireTokenPath, resolveUploadTokenScope, type Clock, type UploadTokenScope } from '@tracker/core';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { DataSource } from 'typeorm';

/** What the `/api/0/` routes need: the database (they answer after their write, like `/ingest/release`). */
export interface SentryApiDeps {
  ds: DataSource;
  /** The path of `TRACKER_PUBLIC_URL` (`/tracker`), or '': the routes answer under it too. */
  pathPrefix?: string;
  clock?: Clock;
}

/** One authenticated request: the token's project and organization, checked against the path. */
export interface SentryApiCall {
  request: FastifyRequest;
  reply: FastifyReply;
  token: UploadTokenScope;
  /** Path parameters, decoded (`org`, `project`, `version`, …). */
  params: Record<string, string>;
  deps: SentryApiDeps;
}

export interface SentryApiRouteOptions {
  /** Bytes; fastify's default (1 MB) otherwise. */
  bodyLimit?: number;
}

/**
 * The `/api/0/` scope as route files see it. `route` adds an endpoint behind the upload-token
 * check: `Authorization: Bearer etu_…` (401 otherwise) and, when the path has `:org` or
 * `:project`, those must name the token's organization and project (403 otherwise). Handlers
 * return the JSON body (status 200 unless they set another) or throw `AppError`, which the
 * scope's error handler turns into Sentry's `{"detail": …}`.
 *
 * `scope` is the encapsulated fastify instance, for what a route file needs beyond routes (a
 * content-type parser for multipart chunk uploads, say); it applies to every `/api/0/` route.
 */
export interface SentryApi {
  readonly scope: FastifyInstance;
  readonly deps: SentryApiDeps;
  route(
    method: HTTPMethods | HTTPMethods[],
    /** Below `/api/0`, starting with `/`, e.g. `/organizations/:org/releases/`. */
    path: string,
    handler: (call: SentryApiCall) => Promise<unknown>,
    options?: SentryApiRouteOptions,
  ): void;
}

/** A route file's entry point: registers its endpoints on the `/api/0/` scope. */
export type SentryApiRoutes = (api: SentryApi) => void;

/** The `/api/0/` paths under each prefix, with and without the trailing slash sentry-cli sends. */
export function sentryApiPaths(pathPrefix: string | undefined, path: string): string[] {
  const prefix = (pathPrefix ?? '').replace(/\/+$/, '');
  const prefixes = prefix === '' ? [''] : ['', prefix.startsWith('/') ? prefix : `/${prefix}`];
  const bare = path.replace(/\/+$/, '');
  const forms = bare.endsWith('*') ? [bare] : [bare, `${bare}/`];
  return prefixes.flatMap((p) => forms.map((f) => `${p}/api/0${f}`));
}

export function createSentryApi(scope: FastifyInstance, deps: SentryApiDeps): SentryApi {
  const tokens = new WeakMap<FastifyRequest, UploadTokenScope>();
  return {
    scope,
    deps,
    route(method, path, handler, options = {}) {
      for (const url of sentryApiPaths(deps.pathPrefix, path)) {
        scope.route({
          method,
          url,
          bodyLimit: options.bodyLimit,
          // Before the body is read: a caller without a valid token learns nothing from a 400.
          onRequest: async (request) => {
            const token = await resolveUploadTokenScope(deps.ds, request.headers.authorization);
            const params = (request.params ?? {}) as Record<string, string>;
            requireTokenPath(token, {
              organization: params.org,
              projects: params.project === undefined ? [] : [params.project],
            });
            tokens.set(request, token);
          },
          handler: async (request, reply) => {
            const token = tokens.get(request)!;
            const params = (request.params ?? {}) as Record<string, string>;
            const body = await handler({ request, reply, token, params, deps });
            return reply.sent ? reply : reply.send(body);
          },
        });
      }
    },
  };
}
