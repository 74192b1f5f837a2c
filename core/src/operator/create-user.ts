import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { signUp } from '../accounts/sign-up';
import type { PlanId } from '../entities';

/** Creates an account with a generated password and its own organization. */
export async function createUserWithPassword(
  ds: DataSource,
  email: string,
  plan: PlanId,
): Promise<{ email: string; password: string; organizationSlug: string }> {
  const password = randomBytes(12).toString('base64url');
  const result = await signUp(ds, { email, password, organizationName: email.split('@')[0] || 'org' }, plan);
  return { email: result.user.email, password, organizationSlug: result.organization.slug };
}
