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
  // Not async, and the reply returned: an async handler that resolves to undefined while the
  // answer is still in the (async) onSend hooks makes fastify send a second time, which logged
  // ERR_HTTP_HEADERS_SENT and two warnings per preflight (issue 31) though the browser got its 204.
  app.options('/*', (_request, reply) =>
    reply
      .header('access-control-allow-methods', 'POST, OPTIONS')
      .header('access-control-allow-headers', 'Authorization, Content-Type, Content-Encoding')
      .header('access-control-max-age', '86400')
      .code(204)
      .send(),
  );
}
