import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { User, type Organization } from '../entities';
import { verifyPassword } from '../security';
import type { RequestOrigin } from '../access/caller';
import { recordAuditForMemberOrganizations } from '../audit/record-audit';
import { recordSignIn, selfSource } from './record-sign-in';
import { createSession, type CreatedSession } from './create-session';
import { firstOrganization } from './first-organization';
import { checkPasswordSignIn, type BreakGlassOrganization } from '../sso/password-sign-in';
import { createSignInChallenge } from './two-factor/sign-in-challenge';

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

export const WRONG_PASSWORD = 'Wrong email or password';

/**
 * The account whose password this is; UNAUTHENTICATED (the same message either way) otherwise.
 * A wrong password for an existing account is recorded in its organizations' audit logs
 * (`auth.sign_in_failed`); an unknown email nowhere (it has no organization).
 */
export async function checkPassword(
  ds: DataSource,
  email: string,
  password: string,
  origin?: RequestOrigin,
): Promise<User> {
  const user = await ds.manager.findOneBy(User, { email: String(email).trim().toLowerCase() });
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !ok) {
    if (user) {
      await ds.transaction((em) =>
        recordAuditForMemberOrganizations(em, user.id, {
          ...selfSource(user.id, origin),
          action: 'auth.sign_in_failed',
          target: { type: 'user', id: user.id, label: user.email },
          changes: { after: { method: 'password' } },
        }),
      );
    }
    throw new AppError('UNAUTHENTICATED', WRONG_PASSWORD);
  }
  return user;
}

/** A session for a user whose password was checked: SSO's rule first, then the audit rows with it. */
async function openPasswordSession(ds: DataSource, user: User, origin?: RequestOrigin): Promise<LogInResult> {
  // After the password check, so that only its holder learns an organization requires SSO.
  const { breakGlass } = await checkPasswordSignIn(ds, user.id);
  const organization = await firstOrganization(ds.manager, user.id);
  const session = await ds.transaction(async (em) => {
    const created = await createSession(em, user.id);
    await recordSignIn(em, user, 'password', breakGlass, origin);
    return created;
  });
  return { user, organization, breakGlass, ...session };
}

/** Password-only sign-in (`login`): refused for an account with two-factor on, which signs in with `signIn`. */
export async function logIn(
  ds: DataSource,
  email: string,
  password: string,
  origin?: RequestOrigin,
): Promise<LogInResult> {
  const user = await checkPassword(ds, email, password, origin);
  if (user.totpSecret) {
    throw new AppError(
      'UNAUTHENTICATED',
      'This account has two-factor authentication on: sign in with signIn, then signInWithTwoFactor',
    );
  }
  return openPasswordSession(ds, user, origin);
}

export type SignInResult = ({ kind: 'session' } & LogInResult) | { kind: 'two-factor'; user: User; challenge: string };

/** Sign-in with a password: a session, or, with two-factor on, a challenge for the code step. */
export async function signInWithPassword(
  ds: DataSource,
  email: string,
  password: string,
  now: number,
  origin?: RequestOrigin,
): Promise<SignInResult> {
  const user = await checkPassword(ds, email, password, origin);
  if (user.totpSecret) {
    // SSO's rule before the code step: a member of an organization requiring SSO gets no challenge.
    await checkPasswordSignIn(ds, user.id);
    return { kind: 'two-factor', user, challenge: await createSignInChallenge(ds, user.id, now) };
  }
  return { kind: 'session', ...(await openPasswordSession(ds, user, origin)) };
}

/** Organizations of the user that require two-factor while the user has none (they must enrol first). */
export async function organizationsRequiringTwoFactor(ds: DataSource, user: User): Promise<string[]> {
  if (user.totpSecret) return [];
  const rows = (await ds.query(
    `SELECT o.id FROM organizations o JOIN memberships m ON m.organization_id = o.id
      WHERE m.user_id = $1 AND o.require_two_factor`,
    [user.id],
  )) as { id: string }[];
  return rows.map((r) => r.id);
}
