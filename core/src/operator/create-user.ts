import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { normalizeEmail } from '../accounts/normalize-email';
import { signUp } from '../accounts/sign-up';
import { User, type PlanId } from '../entities';
import { AppError } from '../errors';

/**
 * Creates an account with a generated password and its own organization; `admin` makes it an
 * instance admin (as the instance's first account is anyway).
 */
export async function createUserWithPassword(
  ds: DataSource,
  email: string,
  plan: PlanId,
  options: { admin?: boolean } = {},
): Promise<{ email: string; password: string; organizationSlug: string; isAdmin: boolean }> {
  // The operator may know which addresses have accounts: say it plainly (sign-up does not).
  if (await ds.manager.existsBy(User, { email: normalizeEmail(email) })) {
    throw new AppError('CONFLICT', `${normalizeEmail(email)} already has an account`);
  }
  const password = randomBytes(12).toString('base64url');
  const result = await signUp(ds, { email, password, organizationName: email.split('@')[0] || 'org' }, plan, options);
  return {
    email: result.user.email,
    password,
    organizationSlug: result.organization.slug,
    isAdmin: result.user.isAdmin,
  };
}
