import type { DataSource, EntityManager } from 'typeorm';
import { isFirstAccount } from '../access/instance-admin';
import { AppError } from '../errors';
import { Membership, Organization, User } from '../entities';
import type { PlanId } from '../entities';
import { hashPassword } from '../security';
import { createSession, type CreatedSession } from './create-session';
import { checkNewPassword } from './new-password';
import { normalizeEmail } from './normalize-email';
import { uniqueSlug } from './unique-slug';

export interface SignUpInput {
  email: string;
  password: string;
  organizationName: string;
}

export interface SignUpResult extends CreatedSession {
  user: User;
  organization: Organization;
}

/**
 * The answer to a sign-up with an address that has an account, when no email can be sent
 * (decision 066). It names no account: it reads the same for an address an operator blocked,
 * and its time matches a successful sign-up's (the password is hashed first either way).
 */
export const SIGN_UP_REFUSED =
  'email: this address cannot be used to sign up. If it is yours, sign in, or ask the operator of this Tracker for a reset link';

export const SIGN_UP_CLOSED =
  'Sign-up is closed on this Tracker: ask an owner or admin of your organization for an invitation';

/** Checks what a sign-up form carries before any work; answers the normalized email and organization name. */
export function checkSignUpInput(input: SignUpInput): { email: string; organizationName: string } {
  const email = normalizeEmail(input.email);
  checkNewPassword('password', input.password);
  const organizationName = String(input.organizationName ?? '').trim();
  if (!organizationName || organizationName.length > 100) {
    throw new AppError('BAD_USER_INPUT', 'organizationName: must be 1 to 100 characters');
  }
  return { email, organizationName };
}

/** Sign-up closed by the operator (`TRACKER_SIGNUP=closed`) still lets the instance's first account in. */
export async function requireSignUpOpen(em: EntityManager, closed: boolean): Promise<void> {
  if (closed && (await em.query('SELECT 1 FROM users LIMIT 1')).length > 0) {
    throw new AppError('FORBIDDEN', SIGN_UP_CLOSED);
  }
}

/** A new organization with `userId` as its owner. */
export async function createOwnedOrganization(
  em: EntityManager,
  userId: string,
  name: string,
  plan: PlanId,
): Promise<Organization> {
  const slug = await uniqueSlug(em, name);
  const organization = await em.save(em.create(Organization, { name, slug, plan }));
  await em.insert(Membership, { organizationId: organization.id, userId, role: 'owner' });
  return organization;
}

/**
 * Creates a user, their first organization (as owner) and a session, in one transaction: the
 * sign-up of an installation that sends no email, and the operator's `user:create`. The
 * instance's first account is its admin (decision 051); `admin` makes any new account one.
 * An address that has an account gets SIGN_UP_REFUSED (never "already exists").
 */
export async function signUp(
  ds: DataSource,
  input: SignUpInput,
  plan: PlanId,
  options: { admin?: boolean; closed?: boolean } = {},
): Promise<SignUpResult> {
  const { email, organizationName } = checkSignUpInput(input);
  const passwordHash = await hashPassword(input.password);
  return ds.transaction(async (em) => {
    await requireSignUpOpen(em, options.closed === true);
    const taken = await em.findOneBy(User, { email });
    if (taken) throw new AppError('BAD_USER_INPUT', SIGN_UP_REFUSED);
    const isAdmin = options.admin === true || (await isFirstAccount(em));
    const user = await em.save(em.create(User, { email, passwordHash, isAdmin }));
    const organization = await createOwnedOrganization(em, user.id, organizationName, plan);
    const session = await createSession(em, user.id);
    return { user, organization, ...session };
  });
}
