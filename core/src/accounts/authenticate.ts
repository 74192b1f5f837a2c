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
  /**
   * Sessions: the organizations requiring two-factor of a user who has none (decision 059), read
   * with the session in one statement, so the two-factor guard costs no statement of its own.
   */
  twoFactorPending?: readonly string[];
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
    // One statement for the session, its user and the two-factor requirement: every dashboard
    // request pays for authentication, so it is one round trip, not three (issue 29's page budget).
    const { entities, raw } = await ds.manager
      .createQueryBuilder(User, 'u')
      .innerJoin(Session, 's', 's.userId = u.id')
      .addSelect('s.id', 'session_id')
      .addSelect('s.revokedAt', 'session_revoked_at')
      .addSelect('s.expiresAt', 'session_expires_at')
      .addSelect(
        `CASE WHEN u.totp_secret IS NULL THEN ARRAY(
           SELECT m.organization_id::text FROM memberships m JOIN organizations o ON o.id = m.organization_id
            WHERE m.user_id = u.id AND o.require_two_factor) ELSE ARRAY[]::text[] END`,
        'two_factor_pending',
      )
      .where('s.tokenHash = :hash', { hash: hashToken(token) })
      .getRawAndEntities<{
        session_id: string;
        session_revoked_at: Date | null;
        session_expires_at: Date | string;
        two_factor_pending: string[];
      }>();
    const [user] = entities;
    const [session] = raw;
    if (!user || !session) return { principal: null, problem: 'Unknown session token: sign in again' };
    if (session.session_revoked_at) return { principal: null, problem: 'This session was signed out: sign in again' };
    if (new Date(session.session_expires_at).getTime() <= Date.now())
      return { principal: null, problem: 'This session has expired: sign in again' };
    return {
      principal: {
        user,
        sessionId: session.session_id,
        apiTokenId: null,
        scopes: ALL_SCOPES,
        twoFactorPending: session.two_factor_pending,
      },
    };
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
