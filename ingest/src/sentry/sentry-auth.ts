import { AppError, type KeyInfo } from '@tracker/core';
import type { FastifyRequest } from 'fastify';
import type { KeyCache } from '../http/key-cache';

const KEY = /^et_[0-9a-f]{32}$/;

/**
 * The DSN key of a Sentry request, from wherever the SDK put it: the `sentry_key` query
 * parameter (browser SDKs), `X-Sentry-Auth: Sentry sentry_key=…, sentry_version=7` (server SDKs;
 * the same value in `Authorization` is accepted, and our own `DSN et_<key>`), or the envelope
 * header `dsn` (SDKs with the `tunnel` option forward envelopes as they are). Every place that
 * holds one must hold the same: 401 otherwise, and 401 when none does.
 *
 * Messages never repeat a key: it is a credential, and error messages reach logs.
 */
export function sentryKeyOf(request: FastifyRequest, envelopeDsn: unknown): string {
  const found: string[] = [];
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.sentry_key;
  if (typeof fromQuery === 'string' && fromQuery !== '') found.push(fromQuery);
  for (const name of ['x-sentry-auth', 'authorization'] as const) {
    const header = request.headers[name];
    if (typeof header === 'string' && header !== '') {
      const key = keyOfAuthHeader(header);
      if (key !== undefined) found.push(key);
      else if (name === 'x-sentry-auth') throw unauthenticated('X-Sentry-Auth names no sentry_key');
    }
  }
  if (typeof envelopeDsn === 'string' && envelopeDsn !== '') found.push(keyOfDsn(envelopeDsn));
  if (found.length === 0) {
    throw unauthenticated(
      'no DSN key: send it as the sentry_key query parameter, in X-Sentry-Auth (Sentry sentry_key=…), or as the envelope header dsn',
    );
  }
  const key = found[0].trim().toLowerCase();
  if (found.some((k) => k.trim().toLowerCase() !== key)) {
    throw unauthenticated('the DSN keys given in the query, the auth headers and the envelope header disagree');
  }
  return key;
}

/** `Sentry sentry_key=et_…, sentry_version=7` (any order, any spacing), or `DSN et_…`. */
function keyOfAuthHeader(header: string): string | undefined {
  const dsn = /^\s*DSN\s+(\S+)\s*$/i.exec(header);
  if (dsn) return dsn[1];
  const body = header.replace(/^\s*Sentry\s+/i, '');
  for (const part of body.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim().toLowerCase() === 'sentry_key') return part.slice(eq + 1).trim();
  }
  return undefined;
}

function keyOfDsn(dsn: string): string {
  try {
    return decodeURIComponent(new URL(dsn).username);
  } catch {
    throw unauthenticated('the envelope header dsn is not a DSN');
  }
}

/**
 * The key's project, which must be the one the path names (`/api/<number>/…`): 403 for an
 * unknown or disabled key and for a key of another project, as Sentry answers. Synchronous
 * when the key is cached, like `authenticateDsn`.
 */
export function authenticateSentryKey(
  publicKey: string,
  projectNumber: string,
  keys: KeyCache,
): KeyInfo | Promise<KeyInfo> {
  if (!KEY.test(publicKey)) throw forbidden('unknown or disabled DSN key');
  const check = (info: KeyInfo | null): KeyInfo => {
    if (!info) throw forbidden('unknown or disabled DSN key');
    if (String(info.projectNumber) !== projectNumber)
      throw forbidden(`the DSN key is not a key of project ${projectNumber}`);
    return info;
  };
  const cached = keys.peek(publicKey);
  return cached !== undefined ? check(cached) : keys.get(publicKey).then(check);
}

function unauthenticated(message: string): AppError {
  return new AppError('UNAUTHENTICATED', message);
}

function forbidden(message: string): AppError {
  return new AppError('FORBIDDEN', message);
}
