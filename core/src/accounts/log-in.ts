import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { User, type Organization } from '../entities';
import { verifyPassword } from '../security';
import { createSession, type CreatedSession } from './create-session';
import { firstOrganization } from './first-organization';
import { createSignInChallenge } from './two-factor/sign-in-challenge';

export interface LogInResult extends CreatedSession {
  user: User;
  /**
   * The user's first organization (by membership age), for the sign-in landing page; null when
   * they belong to none (removed from all of them): they can still sign in and accept an invitation.
   */
  organization: Organization | null;
}

// Verifying against a real hash when the user does not exist keeps the response time the
// same, so timing does not reveal which emails have accounts.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$7e0Yk3hWbHk2Jkq3yEYwZUw8oM1CkS4C+8WbNnq8Oq4';

export const WRONG_PASSWORD = 'Wrong email or password';

/** The account whose password this is; UNAUTHENTICATED (the same message either way) otherwise. */
export async function checkPassword(ds: DataSource, email: string, password: string): Promise<User> {
  const user = await ds.manager.findOneBy(User, { email: String(email).trim().toLowerCase() });
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !ok) throw new AppError('UNAUTHENTICATED', WRONG_PASSWORD);
  return user;
}

/** Password-only sign-in (`login`): refused for an account with two-factor on, which signs in with `signIn`. */
export async function logIn(ds: DataSource, email: string, password: string): Promise<LogInResult> {
  const user = await checkPassword(ds, email, password);
  if (user.totpSecret) {
    throw new AppError(
      'UNAUTHENTICATED',
      'This account has two-factor authentication on: sign in with signIn, then signInWithTwoFactor',
    );
  }
  const organization = await firstOrganization(ds.manager, user.id);
  const session = await createSession(ds.manager, user.id);
  return { user, organization, ...session };
}

export type SignInResult = ({ kind: 'session' } & LogInResult) | { kind: 'two-factor'; user: User; challenge: string };

/** Sign-in with a password: a session, or, with two-factor on, a challenge for the code step. */
export async function signInWithPassword(ds: DataSource, email: string, password: string, now: number): Promise<SignInResult> {
  const user = await checkPassword(ds, email, password);
  if (user.totpSecret) return { kind: 'two-factor', user, challenge: await createSignInChallenge(ds, user.id, now) };
  const organization = await firstOrganization(ds.manager, user.id);
  const session = await createSession(ds.manager, user.id);
  return { kind: 'session', user, organization, ...session };
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
