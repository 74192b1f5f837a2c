import {
  CLIENT_ADDRESS_HEADER,
  CLIENT_USER_AGENT_HEADER,
  verifyClientAddress,
  type RequestOrigin,
} from '@tracker/core';
import type { FastifyRequest } from 'fastify';

function single(value: string | string[] | undefined): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/**
 * What the audit log records of a request's client: its address (the one the rate limiter uses:
 * the browser's when the web role vouched for it) and its user agent. Behind the web role the
 * API's own User-Agent is the web process's, so the browser's is taken from
 * X-Tracker-Client-User-Agent, but only when the same request carries a client address signed
 * with the shared secret: anyone else could write that header.
 */
export function requestOriginOf(
  request: FastifyRequest,
  clientAddress: string,
  secret: string | undefined,
  now: number = Date.now(),
): RequestOrigin {
  const signed = single(request.headers[CLIENT_ADDRESS_HEADER]);
  const vouched = secret !== undefined && signed !== null && verifyClientAddress(secret, signed, now) !== null;
  const userAgent = vouched ? single(request.headers[CLIENT_USER_AGENT_HEADER]) : single(request.headers['user-agent']);
  return { clientAddress, userAgent };
}
