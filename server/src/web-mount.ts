import { dirname, join, relative, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

export interface WebMountOptions {
  /** Absolute URL of the GraphQL endpoint the dashboard's loaders call. */
  apiUrl: () => string;
  sessionSecret: string;
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
  const listener = createRequestListener((request) =>
    handle(request, { apiUrl: options.apiUrl(), sessionSecret: options.sessionSecret }),
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
        reply.hijack();
        listener(request.raw, reply.raw);
      },
    });
  });
}
