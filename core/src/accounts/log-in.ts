import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { User, type Organization } from '../entities';
import { verifyPassword } from '../security';
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

export async function logIn(ds: DataSource, email: string, password: string): Promise<LogInResult> {
  const user = await ds.manager.findOneBy(User, { email: email.trim().toLowerCase() });
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !ok) throw new AppError('UNAUTHENTICATED', 'Wrong email or password');
  // After the password check, so that only its holder learns an organization requires SSO.
  const { breakGlass } = await checkPasswordSignIn(ds, user.id);
  const organization = await firstOrganization(ds.manager, user.id);
  const session = await createSession(ds.manager, user.id);
  return { user, organization, breakGlass, ...session };
}
