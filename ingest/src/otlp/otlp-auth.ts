import { AppError, type KeyInfo } from '@tracker/core';
import type { FastifyRequest } from 'fastify';
import type { KeyCache } from '../http/key-cache';
import { authenticateSentryKey, sentryKeyOf } from '../sentry/sentry-auth';

const KEY = /^et_[0-9a-f]{32}$/;

/**
 * The DSN key of an OTLP request, from the headers an exporter can be given
 * (`OTEL_EXPORTER_OTLP_HEADERS`, the Collector's `headers:`): `Authorization: DSN et_…`,
 * `x-tracker-key: et_…`, or Sentry's `x-sentry-auth: sentry sentry_key=et_…` (read by the
 * Sentry door's own reader). All that are given must agree; none is a 401.
 */
export function otlpKeyOf(request: FastifyRequest): string {
  const raw = request.headers['x-tracker-key'];
  const tracker = typeof raw === 'string' && raw.trim() !== '' ? raw.trim().toLowerCase() : undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const others =
    request.headers.authorization !== undefined || request.headers['x-sentry-auth'] !== undefined || query?.sentry_key;
  let other: string | undefined;
  try {
    if (others) other = sentryKeyOf(request, undefined);
  } catch (err) {
    // An Authorization header meant for something else (a proxy's) does not matter beside x-tracker-key.
    if (tracker === undefined) throw err;
  }
  if (tracker === undefined && other === undefined) {
    throw new AppError(
      'UNAUTHENTICATED',
      'no DSN key: send the header "Authorization: DSN et_<key>" or "x-tracker-key: et_<key>" (e.g. OTEL_EXPORTER_OTLP_HEADERS=x-tracker-key=et_<key>)',
    );
  }
  if (tracker !== undefined && other !== undefined && tracker !== other) {
    throw new AppError('UNAUTHENTICATED', 'the DSN keys given in x-tracker-key and the other auth headers disagree');
  }
  return (tracker ?? other)!;
}

/**
 * The key's project. On `/v1/…` any project's key goes (401 when unknown); under
 * `/api/<number>/integration/otlp/…` it must be that project's (403 otherwise, as on the
 * Sentry door). Synchronous when the key is cached.
 */
export function authenticateOtlp(
  request: FastifyRequest,
  keys: KeyCache,
  projectNumber: string | undefined,
): KeyInfo | Promise<KeyInfo> {
  const key = otlpKeyOf(request);
  if (projectNumber !== undefined) return authenticateSentryKey(key, projectNumber, keys);
  if (!KEY.test(key)) throw new AppError('UNAUTHENTICATED', 'malformed DSN key: expected et_ and 32 hex digits');
  const known = (info: KeyInfo | null): KeyInfo => {
    if (!info) throw new AppError('UNAUTHENTICATED', 'unknown or disabled DSN key');
    return info;
  };
  const cached = keys.peek(key);
  return cached !== undefined ? known(cached) : keys.get(key).then(known);
}
