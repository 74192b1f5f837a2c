import { AppError, type KeyInfo } from '@tracker/core';
import type { FastifyRequest } from 'fastify';
import type { KeyCache } from './key-cache';

const DSN_HEADER = /^DSN\s+(et_[0-9a-f]{32})\s*$/i;

/** `Authorization: DSN et_<key>` → the key's project, or a 401. */
export async function authenticateDsn(request: FastifyRequest, keys: KeyCache): Promise<KeyInfo> {
  const header = request.headers.authorization;
  if (!header) throw new AppError('UNAUTHENTICATED', 'missing Authorization header: expected "DSN et_<key>"');
  const match = DSN_HEADER.exec(header);
  if (!match) throw new AppError('UNAUTHENTICATED', 'malformed Authorization header: expected "DSN et_<key>"');
  const info = await keys.get(match[1].toLowerCase());
  if (!info) throw new AppError('UNAUTHENTICATED', 'unknown or disabled DSN key');
  return info;
}
