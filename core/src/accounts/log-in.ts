import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { Membership, Organization, User } from '../entities';
import { verifyPassword } from '../security';
import { createSession, type CreatedSession } from './create-session';

export interface LogInResult extends CreatedSession {
  user: User;
  /** The user's first organization (by membership age), for the sign-in landing page. */
  organization: Organization;
}

// Verifying against a real hash when the user does not exist keeps the response time the
// same, so timing does not reveal which emails have accounts.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$7e0Yk3hWbHk2Jkq3yEYwZUw8oM1CkS4C+8WbNnq8Oq4';

export async function logIn(ds: DataSource, email: string, password: string): Promise<LogInResult> {
  const user = await ds.manager.findOneBy(User, { email: email.trim().toLowerCase() });
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !ok) throw new AppError('UNAUTHENTICATED', 'Wrong email or password');
  const membership = await ds.manager.findOne(Membership, { where: { userId: user.id }, order: { createdAt: 'ASC' } });
  if (!membership) throw new AppError('FORBIDDEN', 'This account belongs to no organization');
  const organization = await ds.manager.findOneByOrFail(Organization, { id: membership.organizationId });
  const session = await createSession(ds.manager, user.id);
  return { user, organization, ...session };
}
