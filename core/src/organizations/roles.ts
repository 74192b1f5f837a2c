import type { Role } from '../entities';
import { AppError } from '../errors';

/** Most powerful first. */
export const ROLES_BY_RANK: readonly Role[] = ['owner', 'admin', 'member'];

/** Owners and admins manage members, invitations and projects; only owners touch the owner role. */
export const MANAGERS: readonly Role[] = ['owner', 'admin'];

export function parseRole(value: string): Role {
  const role = value.trim().toLowerCase();
  if (!(ROLES_BY_RANK as readonly string[]).includes(role)) {
    throw new AppError('BAD_USER_INPUT', 'role: must be owner, admin or member');
  }
  return role as Role;
}
