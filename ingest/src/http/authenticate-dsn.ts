import { AppError, type KeyInfo } from '@tracker/core';
import type { FastifyRequest } from 'fastify';
import type { KeyCache } from './key-cache';

export const DSN_HEADER = /^DSN\s+(et_[0-9a-f]{32})\s*$/i;

/**
 * `Authorization: DSN et_<key>` → the key's project, or a 401 (thrown). Callers `await` it: a key
 * already in the cache (the steady state) is answered synchronously, without the promises and
 * microtask turns of an async lookup; only a miss waits for the database.
 */
export function authenticateDsn(request: FastifyRequest, keys: KeyCache): KeyInfo | Promise<KeyInfo> {
  const header = request.headers.authorization;
  if (!header) throw new AppError('UNAUTHENTICATED', 'missing Authorization header: expected "DSN et_<key>"');
  const match = DSN_HEADER.exec(header);
  if (!match) throw new AppError('UNAUTHENTICATED', 'malformed Authorization header: expected "DSN et_<key>"');
  const publicKey = match[1].toLowerCase();
  const cached = keys.peek(publicKey);
  return cached !== undefined ? known(cached) : keys.get(publicKey).then(known);
}

function known(info: KeyInfo | null): KeyInfo {
  if (!info) throw new AppError('UNAUTHENTICATED', 'unknown or disabled DSN key');
  return info;
}
