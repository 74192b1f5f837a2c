import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkDocumentShape } from './document-shape';

/** The query text of a GraphQL HTTP request: the JSON body's `query` (POST) or the `query` parameter (GET). */
function queryTextOf(request: FastifyRequest): unknown {
  const source = request.method === 'GET' ? request.query : request.body;
  return source !== null && typeof source === 'object' && !Array.isArray(source)
    ? (source as { query?: unknown }).query
    : undefined;
}

/**
 * fastify `preHandler` of `/graphql`: refuses a document outside `checkDocumentShape`'s limits
 * with HTTP 400 and `BAD_USER_INPUT` (the code of every query limit, docs/api.md) before Apollo
 * parses or validates it, and before authentication and the rate limiter touch the database
 * or Redis. Anything else (no query, a batch, not JSON) is left to Apollo's own answers.
 */
export async function refuseOutsizedDocument(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const query = queryTextOf(request);
  if (typeof query !== 'string') return;
  const refusal = checkDocumentShape(query);
  if (!refusal) return;
  await reply
    .code(400)
    .type('application/json; charset=utf-8')
    .send({ errors: [{ message: refusal.message, extensions: { code: 'BAD_USER_INPUT' } }] });
}
