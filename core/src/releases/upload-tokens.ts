import type { DataSource } from 'typeorm';
import { UploadToken } from '../entities';
import { AppError } from '../errors';
import { isUuid, requireProjectAccess, type Caller } from '../access';
import { MANAGERS } from '../organizations/roles';
import { generateToken, hashToken } from '../security';
import { auditSourceOf, recordAudit } from '../audit/record-audit';

const TOKEN_PATTERN = /^etu_[A-Za-z0-9_-]{43}$/;
/** `etu_` and 4 characters: recognisable in a list, useless to an attacker. */
const PREFIX_LENGTH = 8;

/**
 * Owners and admins: creates an upload token; the secret is returned here once and only its
 * hash is kept.
 */
export async function createUploadToken(
  ds: DataSource,
  caller: Caller,
  input: { projectId: string; name: string },
): Promise<{ token: string; record: UploadToken }> {
  const { project } = await requireProjectAccess(ds, caller, input.projectId, 'admin', 'create upload tokens');
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) throw new AppError('BAD_USER_INPUT', 'name: must be 1 to 100 characters');
  const token = generateToken('etu_');
  const record = await ds.transaction(async (em) => {
    const saved = await em.save(
      Object.assign(new UploadToken(), {
        projectId: input.projectId,
        name,
        tokenPrefix: token.slice(0, PREFIX_LENGTH),
        tokenHash: hashToken(token),
        createdBy: caller.userId,
        lastUsedAt: null,
        revokedAt: null,
      }),
    );
    await recordAudit(em, {
      organizationId: project.organizationId,
      ...auditSourceOf(caller),
      action: 'upload_token.created',
      target: { type: 'upload_token', id: saved.id, label: `${project.name}: ${name}` },
      changes: { after: { name, tokenPrefix: saved.tokenPrefix, projectId: project.id } },
    });
    return saved;
  });
  return { token, record };
}

/**
 * Newest first, revoked ones included (with `revokedAt`), so the list is an audit trail. Owners
 * and admins: who can upload to a project is theirs to see.
 */
export async function listUploadTokens(ds: DataSource, caller: Caller, projectId: string): Promise<UploadToken[]> {
  await requireProjectAccess(ds, caller, projectId, { roles: MANAGERS, scope: 'read' }, 'see upload tokens');
  return ds.manager.find(UploadToken, { where: { projectId }, order: { createdAt: 'DESC' } });
}

/** Owners and admins: revokes a token of the project; revoking twice keeps the first time. */
export async function revokeUploadToken(
  ds: DataSource,
  { caller, projectId, tokenId }: { caller: Caller; projectId: string; tokenId: string },
): Promise<UploadToken> {
  const { project } = await requireProjectAccess(ds, caller, projectId, 'admin', 'revoke upload tokens');
  const token = isUuid(tokenId) ? await ds.manager.findOneBy(UploadToken, { id: tokenId, projectId }) : null;
  if (!token) throw new AppError('NOT_FOUND', 'Upload token not found');
  if (!token.revokedAt) {
    token.revokedAt = new Date();
    await ds.transaction(async (em) => {
      await em.update(UploadToken, { id: token.id }, { revokedAt: token.revokedAt });
      await recordAudit(em, {
        organizationId: project.organizationId,
        ...auditSourceOf(caller),
        action: 'upload_token.revoked',
        target: { type: 'upload_token', id: token.id, label: `${project.name}: ${token.name}` },
        changes: { before: { tokenPrefix: token.tokenPrefix, revoked: false }, after: { revoked: true } },
      });
    });
  }
  return token;
}

/**
 * `Bearer etu_…` → the token's project, or a 401. A DSN key (`et_…`) is refused by name, so a
 * user who pastes the wrong secret learns which one the endpoint wants.
 */
export async function authenticateUploadToken(
  ds: DataSource,
  header: string | undefined,
): Promise<{ tokenId: string; projectId: string }> {
  if (!header) throw new AppError('UNAUTHENTICATED', 'missing Authorization header: expected "Bearer etu_<token>"');
  const match = /^(Bearer|DSN)\s+(\S+)\s*$/i.exec(header);
  const secret = match?.[2] ?? '';
  if (/^et_/.test(secret) || match?.[1].toUpperCase() === 'DSN') {
    throw new AppError(
      'UNAUTHENTICATED',
      'a DSN key cannot upload source maps or register releases: use an upload token (etu_…)',
    );
  }
  if (!match || !TOKEN_PATTERN.test(secret)) {
    throw new AppError('UNAUTHENTICATED', 'malformed Authorization header: expected "Bearer etu_<token>"');
  }
  const token = await ds.manager
    .createQueryBuilder(UploadToken, 't')
    .where('t.token_hash = :hash', { hash: hashToken(secret) })
    .getOne();
  if (!token) throw new AppError('UNAUTHENTICATED', 'unknown upload token');
  if (token.revokedAt) throw new AppError('UNAUTHENTICATED', 'this upload token was revoked');
  await ds.manager.update(UploadToken, { id: token.id }, { lastUsedAt: new Date() });
  return { tokenId: token.id, projectId: token.projectId };
}
