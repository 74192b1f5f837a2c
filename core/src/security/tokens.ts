import { createHash, randomBytes } from 'node:crypto';

/** Opaque secret with a recognisable prefix (`ets_` session, `et_` DSN key, `etu_` upload token). */
export function generateToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/** DSN keys are hex so they survive URL user-info and `Authorization` headers unescaped. */
export function generateDsnKey(): string {
  return `et_${randomBytes(16).toString('hex')}`;
}

/**
 * Secrets are stored as SHA-256: they are long random strings, so a fast hash is enough
 * (unlike passwords, which get argon2id) and lookups stay a single indexed equality.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
