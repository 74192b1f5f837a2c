import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { User, type Organization } from '../entities';
import { verifyPassword } from '../security';
import type { RequestOrigin } from '../access/caller';
import { recordAudit, recordAuditForMemberOrganizations } from '../audit/record-audit';
import { createSession, type CreatedSession } from './create-session';
import { firstOrganization } from './first-organization';
import { checkPasswordSignIn, type BreakGlassOrganization } from '../sso/password-sign-in';

export interface LogInResult extends CreatedSession {
  user: User;
  /**
   * The user's first organization (by membership age), for the sign-in landing page; null when
   * they belong to none (removed from all of them): they can still sign in and accept an invitation.
   */
  organization: Organization | null;
  /** Organizations requiring SSO that this owner entered with a password (break-glass): to be recorded. */
  breakGlass: BreakGlassOrganization[];
}

// Verifying against a real hash when the user does not exist keeps the response time the
// same, so timing does not reveal which emails have accounts.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$7e0Yk3hWbHk2Jkq3yEYwZUw8oM1CkS4C+8WbNnq8Oq4';

/**
 * Password sign-in. A success is recorded in the audit log of each of the user's organizations
 * with the new session, in one transaction; a wrong password for an existing account is
 * recorded there too (`auth.sign_in_failed`), and an unknown email nowhere (it has no organization).
 */
export async function logIn(
  ds: DataSource,
  email: string,
  password: string,
  origin?: RequestOrigin,
): Promise<LogInResult> {
  const user = await ds.manager.findOneBy(User, { email: email.trim().toLowerCase() });
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  const source = (userId: string) => ({
    actor: { type: 'user' as const, userId },
    clientAddress: origin?.clientAddress ?? null,
    userAgent: origin?.userAgent ?? null,
  });
  if (!user || !ok) {
    if (user) {
      await ds.transaction((em) =>
        recordAuditForMemberOrganizations(em, user.id, {
          ...source(user.id),
          action: 'auth.sign_in_failed',
          target: { type: 'user', id: user.id, label: user.email },
          changes: { after: { method: 'password' } },
        }),
      );
    }
    throw new AppError('UNAUTHENTICATED', 'Wrong email or password');
  }
  // After the password check, so that only its holder learns an organization requires SSO.
  const { breakGlass } = await checkPasswordSignIn(ds, user.id);
  const organization = await firstOrganization(ds.manager, user.id);
  const session = await ds.transaction(async (em) => {
    const created = await createSession(em, user.id);
    await recordAuditForMemberOrganizations(em, user.id, {
      ...source(user.id),
      action: 'auth.signed_in',
      target: { type: 'user', id: user.id, label: user.email },
      changes: { after: { method: 'password' } },
    });
    // An owner's password sign-in where the organization requires SSO: recorded there as such.
    for (const { id: organizationId } of breakGlass) {
      await recordAudit(em, {
        organizationId,
        ...source(user.id),
        action: 'auth.break_glass_signed_in',
        target: { type: 'user', id: user.id, label: user.email },
      });
    }
    return created;
  });
  return { user, organization, breakGlass, ...session };
}
