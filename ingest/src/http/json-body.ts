import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { AppError } from '@tracker/core';

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
 * invalid JSON, and `__proto__` / `constructor.prototype` keys refused, with a 400 that names the
 * key (docs/ingest.md). Throws those errors.
 *
 * Why refused rather than dropped (as the Sentry door drops them): a route enqueues the body's
 * text as received when it is canonical, so a key dropped from the parsed object would still
 * reach the worker in the text; and a body that says what it refuses is one a client can fix.
 */
export function parseJsonText(text: string): unknown {
  if (text.length === 0) throw new FST_ERR_CTP_EMPTY_JSON_BODY();
  try {
    return secureJsonParse(text, null, PARSE_OPTIONS);
  } catch (err) {
    if (err instanceof SyntaxError && err.message === FORBIDDEN_KEY) throw forbiddenKey(text);
    throw new FST_ERR_CTP_INVALID_JSON_BODY();
  }
}

/** secure-json-parse's message for a valid JSON text with a forbidden key. */
const FORBIDDEN_KEY = 'Object contains forbidden prototype property';

function forbiddenKey(text: string): AppError {
  const key = /"__proto__"\s*:/.test(text) ? 'a key "__proto__"' : 'a key "constructor" holding "prototype"';
  return new AppError(
    'BAD_USER_INPUT',
    `body: ${key} is not accepted anywhere in the body (it could change the prototype of objects built from it); rename it`,
  );
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
