import { hasScope } from '../accounts/scopes';
import type { ApiScope, Role } from '../entities';
import { AppError } from '../errors';
import { MANAGERS, ROLES_BY_RANK } from '../organizations/roles';
import type { Caller } from './caller';

/**
 * What a call needs. `read` and `write` are open to every member (triage is everyone's job);
 * `admin` (people, secrets, destructive changes) to owners and admins. The same word is the
 * API-token scope it needs, so one value says both.
 */
export type Need = 'read' | 'write' | 'admin';

/** The roles each need admits: the one table of who may do what in an organization. */
export const ROLES_FOR: Record<Need, readonly Role[]> = {
  read: ROLES_BY_RANK,
  write: ROLES_BY_RANK,
  admin: MANAGERS,
};

/**
 * Throws FORBIDDEN when a member's role or credential does not allow `action`. Callers have
 * already proven membership: a stranger gets NOT_FOUND before this, exactly as for a missing id.
 */
export function assertAllowed(
  caller: Caller,
  role: Role,
  need: { roles: readonly Role[]; scope: ApiScope },
  action: string,
): void {
  assertScope(caller, need.scope, action);
  if (!need.roles.includes(role)) {
    const names = ROLES_BY_RANK.filter((r) => need.roles.includes(r)).map((r) => `${r}s`);
    throw new AppError('FORBIDDEN', `Only ${names.join(' and ')} can ${action}`);
  }
}

/** Throws FORBIDDEN when the caller's credential lacks `scope` (sessions have every scope). */
export function assertScope(caller: Caller, scope: ApiScope, action: string): void {
  if (hasScope(caller.scopes, scope)) return;
  // The API's scope guard refuses first with the same code; this is the backstop for any other
  // edge that calls core with a token's caller.
  throw new AppError('FORBIDDEN', `This API token has the scope ${caller.scopes.join(', ')}: ${action} needs ${scope}`);
}

/** A need, or explicit roles (owners only, say) with the token scope the call needs. */
export type AccessNeed = Need | { roles: readonly Role[]; scope: ApiScope };

/** `need` as roles and scope. */
export function needOf(need: AccessNeed): { roles: readonly Role[]; scope: ApiScope } {
  return typeof need === 'string' ? { roles: ROLES_FOR[need], scope: need } : need;
}

/**
 * Field-level rule (secrets, capability URLs): a value is shown in full only to someone who
 * could also change it, an owner or admin calling with a session or an `admin`-scope token.
 * Members, and `read` or `write` tokens of anyone, get masks.
 */
export function canSeeSecrets(caller: Caller, role: Role | null): boolean {
  return role !== null && MANAGERS.includes(role) && hasScope(caller.scopes, 'admin');
}
