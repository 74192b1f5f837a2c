import type { DataSource, EntityManager } from 'typeorm';
import { hasScope } from '../accounts/scopes';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import type { Caller } from './caller';

/**
 * Whether the caller is an instance admin (decision 051). Not a role in any organization: it
 * opens the admin screen's instance-wide counts and operations, never a tenant's data.
 */
export async function isInstanceAdmin(on: DataSource | EntityManager, caller: Caller): Promise<boolean> {
  const rows = await queryRows<{ is_admin: boolean }>(on, 'SELECT is_admin FROM users WHERE id = $1', [caller.userId]);
  return rows[0]?.is_admin === true;
}

/**
 * Throws FORBIDDEN unless the caller is an instance admin calling with every scope (a session:
 * the API refuses API tokens for these fields before this; this is the backstop for any other
 * edge). Everyone else gets the same answer whether or not they could otherwise read anything.
 */
export async function requireInstanceAdmin(
  on: DataSource | EntityManager,
  caller: Caller,
  action: string,
): Promise<void> {
  if (!hasScope(caller.scopes, 'admin') || !(await isInstanceAdmin(on, caller))) {
    throw new AppError('FORBIDDEN', `Only instance admins can ${action}`);
  }
}

/** Keys the first-account lock; any constant works, it only has to be this one everywhere. */
const FIRST_ACCOUNT_LOCK = 'tracker:first-account';

/**
 * Inside the transaction that creates an account: true when it will be the instance's first
 * (decision 051: the first account is the admin). Two sign-ups racing on an empty instance take
 * an advisory lock, so exactly one of them is first; once any account exists nobody waits.
 */
export async function isFirstAccount(em: EntityManager): Promise<boolean> {
  const any = async () => (await queryRows(em, 'SELECT 1 FROM users LIMIT 1')).length > 0;
  if (await any()) return false;
  await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [FIRST_ACCOUNT_LOCK]);
  return !(await any());
}
