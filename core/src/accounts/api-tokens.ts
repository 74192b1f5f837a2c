import type { DataSource } from 'typeorm';
import { ApiToken } from '../entities';
import { AppError } from '../errors';
import { isUuid } from '../projects/find-project';
import { generateToken, hashToken } from '../security';
import { parseScopes } from './scopes';
import type { Caller } from '../access/caller';
import { auditSourceOf, recordAuditForMemberOrganizations } from '../audit/record-audit';

/** The request behind a token change, for the audit log: its address and user agent. */
type Origin = Caller['origin'];

export const API_TOKEN_PREFIX = 'eta_';
/** `eta_` and 8 characters: recognisable in a list, useless to an attacker (256-bit secret). */
const PREFIX_LENGTH = 12;
/** Live (unrevoked) tokens per user; a bound on what one account can mint. */
export const MAX_API_TOKENS_PER_USER = 100;

export interface CreatedApiToken {
  /** The secret (`eta_…`), returned here once; only its SHA-256 is kept. */
  token: string;
  record: ApiToken;
}

/** A personal API token with the given scopes (`read`, `write`, `admin`). */
export async function createApiToken(
  ds: DataSource,
  userId: string,
  input: { name: string; scopes: readonly string[] },
  origin?: Origin,
): Promise<CreatedApiToken> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) throw new AppError('BAD_USER_INPUT', 'name: must be 1 to 100 characters');
  const scopes = parseScopes(input.scopes);
  const liveRows: Array<{ n: string }> = await ds.query(
    'SELECT count(*) AS n FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL',
    [userId],
  );
  if (Number(liveRows[0]?.n ?? 0) >= MAX_API_TOKENS_PER_USER) {
    throw new AppError('BAD_USER_INPUT', `You have ${MAX_API_TOKENS_PER_USER} API tokens: revoke some first`);
  }
  const token = generateToken(API_TOKEN_PREFIX);
  const record = await ds.transaction(async (em) => {
    const saved = await em.save(
      Object.assign(new ApiToken(), {
        userId,
        name,
        scopes,
        tokenPrefix: token.slice(0, PREFIX_LENGTH),
        tokenHash: hashToken(token),
        lastUsedAt: null,
        revokedAt: null,
      }),
    );
    // A personal token acts in every organization of its user: each one's log shows it.
    await recordAuditForMemberOrganizations(em, userId, {
      ...auditSourceOf({ userId, scopes: [], origin }),
      action: 'api_token.created',
      target: { type: 'api_token', id: saved.id, label: name },
      changes: { after: { name, scopes, tokenPrefix: saved.tokenPrefix } },
    });
    return saved;
  });
  return { token, record };
}

/** The user's tokens, newest first, revoked ones included (an audit trail). Never the secret. */
export async function listApiTokens(ds: DataSource, userId: string): Promise<ApiToken[]> {
  return ds.manager.find(ApiToken, { where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } });
}

/**
 * Revokes one of the user's tokens; it stops working on the next request. Someone else's token
 * answers NOT_FOUND like a missing one. Revoking twice keeps the first time.
 */
export async function revokeApiToken(
  ds: DataSource,
  userId: string,
  tokenId: string,
  source: { apiTokenId?: string | null; origin?: Origin } = {},
): Promise<ApiToken> {
  const token = isUuid(tokenId) ? await ds.manager.findOneBy(ApiToken, { id: tokenId, userId }) : null;
  if (!token) throw new AppError('NOT_FOUND', 'API token not found');
  if (!token.revokedAt) {
    token.revokedAt = new Date();
    await ds.transaction(async (em) => {
      await em.update(ApiToken, { id: token.id }, { revokedAt: token.revokedAt });
      await recordAuditForMemberOrganizations(em, userId, {
        ...auditSourceOf({ userId, scopes: [], apiTokenId: source.apiTokenId, origin: source.origin }),
        action: 'api_token.revoked',
        target: { type: 'api_token', id: token.id, label: token.name },
        changes: { before: { tokenPrefix: token.tokenPrefix, revoked: false }, after: { revoked: true } },
      });
    });
  }
  return token;
}
