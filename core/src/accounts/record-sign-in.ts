import type { EntityManager } from 'typeorm';
import type { RequestOrigin } from '../access/caller';
import { recordAudit, recordAuditForMemberOrganizations } from '../audit/record-audit';
import type { User } from '../entities';
import type { BreakGlassOrganization } from '../sso/password-sign-in';

/** The audit source of a person acting for themselves from a request. */
export function selfSource(userId: string, origin?: RequestOrigin) {
  return {
    actor: { type: 'user' as const, userId },
    clientAddress: origin?.clientAddress ?? null,
    userAgent: origin?.userAgent ?? null,
  };
}

/**
 * Records a completed sign-in in each of the user's organizations, in the session's transaction,
 * and, where an owner entered an organization that requires SSO with a password, the break-glass.
 */
export async function recordSignIn(
  em: EntityManager,
  user: User,
  method: 'password' | 'password+two-factor',
  breakGlass: readonly BreakGlassOrganization[],
  origin?: RequestOrigin,
): Promise<void> {
  const source = selfSource(user.id, origin);
  const target = { type: 'user' as const, id: user.id, label: user.email };
  await recordAuditForMemberOrganizations(em, user.id, {
    ...source,
    action: 'auth.signed_in',
    target,
    changes: { after: { method } },
  });
  for (const { id: organizationId } of breakGlass) {
    await recordAudit(em, { organizationId, ...source, action: 'auth.break_glass_signed_in', target });
  }
}
