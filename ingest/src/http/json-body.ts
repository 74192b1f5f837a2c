import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';
import secureJsonParse from 'secure-json-parse';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The JSON body as received (UTF-8 text), set on ingest routes next to the parsed `body`.
     * A route whose body is already in its canonical form enqueues this text as it is instead of
     * serializing the parsed object again (`encodeJob(job, payloadJson)`).
     */
    rawJsonBody: string | undefined;
  }
}

const { FST_ERR_CTP_EMPTY_JSON_BODY, FST_ERR_CTP_INVALID_JSON_BODY } = errorCodes;
const PARSE_OPTIONS = { protoAction: 'error', constructorAction: 'error' } as const;

/**
 * fastify's own `application/json` parser (same library, same options, same errors: empty body,
 * invalid JSON, `__proto__` / `constructor.prototype` keys refused), except that it also keeps
 * the text on `request.rawJsonBody`. The route's `bodyLimit` still applies while reading (413),
 * and other content types still have no parser (415).
 */
export function registerJsonBodyParser(scope: FastifyInstance): void {
  scope.decorateRequest('rawJsonBody', undefined);
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);
}

/**
 * The body text as fastify's JSON parser would take it: the same errors for an empty body or
 * invalid JSON, and `__proto__` / `constructor.prototype` keys refused. Throws those errors.
 */
export function parseJsonText(text: string): unknown {
  if (text.length === 0) throw new FST_ERR_CTP_EMPTY_JSON_BODY();
  try {
    return secureJsonParse(text, null, PARSE_OPTIONS);
  } catch {
    throw new FST_ERR_CTP_INVALID_JSON_BODY();
  }
}

function parseJsonBody(
  request: FastifyRequest,
  body: string | Buffer,
  done: (err: Error | null, body?: unknown) => void,
) {
  const text = body as string;
  let parsed: unknown;
  try {
    parsed = parseJsonText(text);
  } catch (err) {
    done(err as Error, undefined);
    return;
  }
  request.rawJsonBody = text;
  done(null, parsed);
}
