import { dirname, join, relative, sep } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { signClientAddress } from '@tracker/core';
import type { SdkSetupInfo } from './sdk-dist/sdk-assets';

export interface WebMountOptions {
  /** Absolute URL of the GraphQL endpoint the dashboard's loaders call. */
  apiUrl: () => string;
  sessionSecret: string;
  /** The SDK URLs and SRI hashes for the setup page; undefined when the SDKs were not packed. */
  sdk: () => SdkSetupInfo | undefined;
  /** TRACKER_PUBLIC_URL: when it is https, the session cookie is always `Secure`. */
  publicUrl: () => string;
}

/** Methods that run a Remix action, which Remix guards against cross-site requests. */
const ACTION_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const FOREIGN_ORIGIN_BODY =
  'Forbidden: this form was sent from another site. Open Tracker at its own address and try again.\n';

/** The first of a comma-separated header's values, as Remix reads `X-Forwarded-Host`. */
function firstValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.split(',')[0]?.trim() || undefined;
}

/**
 * Whether a request that would run a dashboard action came from another site: its `Origin`
 * (when sent) names another host than the one it was sent to (`X-Forwarded-Host` first, as
 * Remix reads it). The same rule as Remix's own check, which throws and answers a bare 500;
 * checked here first so the browser gets a 403 that says why. `Origin: null` (sandboxed frames,
 * some privacy redirects) and malformed origins are foreign too: Remix refuses them as well.
 */
export function isForeignOrigin(method: string, headers: IncomingHttpHeaders): boolean {
  if (!ACTION_METHODS.has(method)) return false;
  const origin = headers.origin;
  if (!origin) return false;
  const host = firstValue(headers['x-forwarded-host']) ?? headers.host;
  if (!host) return true;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/**
 * Serves the Remix dashboard: built assets by @fastify/static, pages by Remix's own request
 * handler bridged to Node with @remix-run/node-fetch-server (the fastest mount measured in
 * STACK.md; express adapters fail under fastify).
 */
export async function mountWeb(app: FastifyInstance, options: WebMountOptions): Promise<void> {
  const webRoot = dirname(require.resolve('@tracker/web/package.json'));
  const serverBuild = join(webRoot, 'build/server/index.js');
  // ESM packages and the ESM server build: loaded with import() from this CommonJS module.
  const build = await import(serverBuild);
  const { createRequestHandler } = await import('@remix-run/node');
  const { createRequestListener } = await import('@remix-run/node-fetch-server');
  const handle = createRequestHandler(build, 'production');
  // One listener per request. Its load context carries that request's address as fastify reads it
  // (`request.ip`: a trusted proxy's X-Forwarded-For counts, TRACKER_TRUSTED_PROXIES), signed for
  // the API's rate limit (core/src/security/client-address.ts), and whether the browser used
  // https, decided here where fastify knows if the connection came from a trusted proxy; not by
  // Remix's own `trustProxy`, which would believe the header from any client. The Request the
  // dashboard sees carries the scheme the browser used.
  const listenerFor = (https: boolean, ip: string) =>
    createRequestListener(
      (request) =>
        handle(request, {
          apiUrl: options.apiUrl(),
          sessionSecret: options.sessionSecret,
          signedClientAddress: signClientAddress(options.sessionSecret, ip, Date.now()),
          // For the audit log only (the API believes it beside a verified address).
          clientUserAgent: request.headers.get('user-agent')?.slice(0, 300) ?? undefined,
          sdk: options.sdk(),
          secureCookies: https || options.publicUrl().startsWith('https:'),
        }),
      https ? { protocol: 'https:' } : undefined,
    );

  await app.register(async (scope) => {
    // Remix reads the body itself: leave the stream untouched for every content type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const clientRoot = join(webRoot, 'build/client');
    await scope.register(fastifyStatic, {
      root: clientRoot,
      wildcard: false,
      // Off: @fastify/static applies its own cache-control after setHeaders, overwriting ours.
      cacheControl: false,
      // Vite puts a content hash in every asset name, so they never change.
      setHeaders: (res, path) => {
        const immutable = relative(clientRoot, path).startsWith(`assets${sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0');
        // Pages get theirs from the dashboard's entry.server; assets need only this one.
        res.setHeader('x-content-type-options', 'nosniff');
      },
    });
    scope.route({
      method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/*',
      handler: (request, reply) => {
        if (isForeignOrigin(request.method, request.headers)) {
          return reply
            .code(403)
            .headers({ 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
            .send(FOREIGN_ORIGIN_BODY);
        }
        reply.hijack();
        listenerFor(request.protocol === 'https', request.ip)(request.raw, reply.raw);
      },
    });
  });
}
