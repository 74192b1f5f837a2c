import type { DataSource } from 'typeorm';
import { ApiToken, Session, User, type ApiScope } from '../entities';
import { hashToken } from '../security';
import { API_TOKEN_PREFIX } from './api-tokens';
import { SESSION_PREFIX } from './create-session';
import { ALL_SCOPES } from './scopes';

/** Who is calling: a user, through a session (all scopes) or an API token (its scopes). */
export interface Principal {
  user: User;
  /** The session behind the request; null when it came with an API token. */
  sessionId: string | null;
  /** The API token behind the request; null for a session. Log this id, never the secret. */
  apiTokenId: string | null;
  /** What the caller may do on top of its roles. A session has every scope. */
  scopes: readonly ApiScope[];
}

export type BearerResult = { principal: Principal } | { principal: null; problem: string };

/** `last_used_at` is written at most this often per token, not on every request. */
const LAST_USED_RESOLUTION_S = 60;

/**
 * A bearer token (`ets_…` session or `eta_…` API token) to its principal, or the reason it is
 * refused. The reason can say "revoked" or "expired": only the holder of the secret learns it.
 */
export async function authenticateBearer(ds: DataSource, token: string): Promise<BearerResult> {
  if (token.startsWith(SESSION_PREFIX)) {
    const session = await ds.manager.findOneBy(Session, { tokenHash: hashToken(token) });
    if (!session) return { principal: null, problem: 'Unknown session token: sign in again' };
    if (session.revokedAt) return { principal: null, problem: 'This session was signed out: sign in again' };
    if (session.expiresAt.getTime() <= Date.now())
      return { principal: null, problem: 'This session has expired: sign in again' };
    const user = await ds.manager.findOneBy(User, { id: session.userId });
    if (!user) return { principal: null, problem: 'Unknown session token: sign in again' };
    return { principal: { user, sessionId: session.id, apiTokenId: null, scopes: ALL_SCOPES } };
  }
  if (token.startsWith(API_TOKEN_PREFIX)) {
    const apiToken = await ds.manager.findOneBy(ApiToken, { tokenHash: hashToken(token) });
    if (!apiToken) return { principal: null, problem: 'Unknown API token' };
    if (apiToken.revokedAt) return { principal: null, problem: 'This API token was revoked' };
    const user = await ds.manager.findOneBy(User, { id: apiToken.userId });
    if (!user) return { principal: null, problem: 'Unknown API token' };
    await ds.query(
      `UPDATE api_tokens SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
      [apiToken.id, LAST_USED_RESOLUTION_S],
    );
    return { principal: { user, sessionId: null, apiTokenId: apiToken.id, scopes: apiToken.scopes } };
  }
  return { principal: null, problem: 'Unknown token: expected a session (ets_…) or an API token (eta_…)' };
}

/** The principal behind a bearer token, or null when it is unknown, expired or revoked. */
export async function authenticate(ds: DataSource, token: string): Promise<Principal | null> {
  return (await authenticateBearer(ds, token)).principal;
}

/** Sign-out: revokes one session. */
export async function logOut(ds: DataSource, sessionId: string): Promise<void> {
  await ds.manager.update(Session, { id: sessionId }, { revokedAt: new Date() });
}
