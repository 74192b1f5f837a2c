import { AppError, httpStatusFor, type AppErrorCode } from '@tracker/core';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ingestFailureLog } from './log-throttle';

/** The wire contract's error body (docs/wire.md): `{"error": {"code", "message"}}`. */
export function sendError(reply: FastifyReply, code: AppErrorCode, message: string, retryAfter?: number): FastifyReply {
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfterSeconds(retryAfter)));
  return reply.code(httpStatusFor(code)).send({ error: { code, message } });
}

export function retryAfterSeconds(retryAfter: number): number {
  return Math.max(1, Math.ceil(retryAfter));
}

// fastify's own errors (raised before our handler runs) mapped to the contract.
const FASTIFY_CODES: Record<string, [AppErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'body exceeds the limit of 1 MB'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['BAD_USER_INPUT', 'Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['BAD_USER_INPUT', 'body: is required'],
};

/**
 * What the contract answers for an error raised while taking an ingest request, or `null` for
 * one it does not expect (then: log it and answer 503). The one mapping, used by the fastify
 * error handler and by the fast path.
 */
export function wireErrorOf(
  error: Error & { code?: string; statusCode?: number },
): { code: AppErrorCode; message: string; retryAfter?: number } | null {
  if (error instanceof AppError) return { code: error.code, message: error.message, retryAfter: error.retryAfter };
  const known = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (known) return { code: known[0], message: known[1] };
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return { code: 'BAD_USER_INPUT', message: `body: malformed JSON (${error.message})` };
  }
  return null;
}

export const UNAVAILABLE = {
  error: { code: 'UNAVAILABLE', message: 'could not accept the event; retry later' },
} as const;

/**
 * Seconds a client is told to wait (`Retry-After`) when ingest could not take its request
 * (the queue did not confirm in time): Redis restarts and fail-overs take seconds.
 */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/** The single place where errors on ingest routes become HTTP answers. */
export function ingestErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const wire = wireErrorOf(error);
  if (wire) return sendError(reply, wire.code, wire.message, wire.retryAfter);
  const held = ingestFailureLog.take();
  if (held !== undefined) request.log.error({ err: error, heldBack: held }, 'ingest request failed');
  return reply.code(503).header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S)).send(UNAVAILABLE);
}
