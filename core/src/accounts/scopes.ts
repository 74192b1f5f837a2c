import { API_SCOPES, type ApiScope } from '../entities';
import { AppError } from '../errors';

/** What a session may do: everything its user's roles allow. */
export const ALL_SCOPES: readonly ApiScope[] = API_SCOPES;

const RANK: Record<ApiScope, number> = { read: 0, write: 1, admin: 2 };

/**
 * Scopes are levels: `admin` includes `write`, which includes `read`. A token granted
 * `[write]` may therefore also read.
 */
export function hasScope(granted: readonly ApiScope[], needed: ApiScope): boolean {
  return granted.some((s) => RANK[s] >= RANK[needed]);
}

/** Validates and de-duplicates requested scopes (in `read`, `write`, `admin` order). */
export function parseScopes(requested: readonly string[]): ApiScope[] {
  const unknown = requested.filter((s) => !(API_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new AppError(
      'BAD_USER_INPUT',
      `scopes: unknown scope ${JSON.stringify(unknown[0])}; use read, write or admin`,
    );
  }
  const scopes = API_SCOPES.filter((s) => requested.includes(s));
  if (scopes.length === 0) throw new AppError('BAD_USER_INPUT', 'scopes: name at least one of read, write, admin');
  return scopes;
}
