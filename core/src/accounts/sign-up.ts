import type { DataSource } from 'typeorm';
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
 * Creates a user, their first organization (as owner) and a session, in one transaction. The
 * instance's first account is its admin (decision 051); `admin` makes any new account one (the
 * operator command's `user:create --admin`).
 */
export async function signUp(
  ds: DataSource,
  input: SignUpInput,
  plan: PlanId,
  options: { admin?: boolean } = {},
): Promise<SignUpResult> {
  const email = normalizeEmail(input.email);
  checkNewPassword('password', input.password);
  const orgName = input.organizationName.trim();
  if (!orgName || orgName.length > 100) {
    throw new AppError('BAD_USER_INPUT', 'organizationName: must be 1 to 100 characters');
  }
  const passwordHash = await hashPassword(input.password);
  return ds.transaction(async (em) => {
    const taken = await em.findOneBy(User, { email });
    if (taken) throw new AppError('CONFLICT', 'email: an account with this email already exists');
    const isAdmin = options.admin === true || (await isFirstAccount(em));
    const user = await em.save(em.create(User, { email, passwordHash, isAdmin }));
    const slug = await uniqueSlug(em, orgName);
    const organization = await em.save(em.create(Organization, { name: orgName, slug, plan }));
    await em.insert(Membership, { organizationId: organization.id, userId: user.id, role: 'owner' });
    const session = await createSession(em, user.id);
    return { user, organization, ...session };
  });
}
