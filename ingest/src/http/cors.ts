import type { FastifyInstance } from 'fastify';

/**
 * Ingest takes a public DSN from any web page, so CORS is open by design: any origin, no
 * credentials. Retry-After is exposed so browser SDKs can honour a 429; Content-Encoding is
 * allowed so a browser may send a compressed body (content-encoding.ts).
 */
export function registerIngestCors(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every ingest request, and an async hook costs
  // a promise and a microtask turn each time.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'Retry-After');
    done();
  });
  app.options('/*', async (_request, reply) => {
    reply
      .header('access-control-allow-methods', 'POST, OPTIONS')
      .header('access-control-allow-headers', 'Authorization, Content-Type, Content-Encoding')
      .header('access-control-max-age', '86400')
      .code(204)
      .send();
  });
}
