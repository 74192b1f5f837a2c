import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { Organization, PlanId, Role } from '../entities';
import { AppError } from '../errors';
import type { Caller } from './caller';
import { isUuid } from './is-uuid';
import { assertAllowed, canSeeSecrets, type AccessNeed, needOf } from './rules';

export interface OrganizationAccess {
  organization: Organization;
  /** The caller's role in it. */
  role: Role;
  /** Whether the caller sees its secrets in full (rules.ts `canSeeSecrets`). */
  seesSecrets: boolean;
}

interface Row {
  id: string;
  name: string;
  slug: string;
  plan: PlanId;
  created_at: Date;
  require_two_factor: boolean;
  role: Role;
}

/**
 * The organization and the caller's role in it, when the caller is a member; null otherwise,
 * whether or not it exists. With `lock`, the organization row is locked (FOR UPDATE) until the
 * transaction ends: changes that must keep "at least one owner" true serialize on it.
 */
export async function findOrganizationAccess(
  on: DataSource | EntityManager,
  caller: Caller,
  organizationId: string,
  options: { lock?: boolean } = {},
): Promise<OrganizationAccess | null> {
  if (!isUuid(organizationId)) return null;
  const read = () =>
    queryRows<Row>(
      on,
      `SELECT o.id, o.name, o.slug, o.plan, o.created_at, o.require_two_factor, m.role
         FROM organizations o
         JOIN memberships m ON m.organization_id = o.id AND m.user_id = $2
        WHERE o.id = $1`,
      [organizationId, caller.userId],
    );
  let row = (await read())[0];
  if (!row) return null;
  if (options.lock) {
    // Lock only as a member (a stranger cannot hold another tenant's row), then read again: the
    // first read's snapshot predates the wait, and the caller's role may have changed meanwhile.
    await queryRows(on, 'SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
    row = (await read())[0];
    if (!row) return null;
  }
  return {
    organization: {
      id: row.id,
      name: row.name,
      slug: row.slug,
      plan: row.plan,
      createdAt: new Date(row.created_at),
      requireTwoFactor: row.require_two_factor,
    },
    role: row.role,
    seesSecrets: canSeeSecrets(caller, row.role),
  };
}

/**
 * Like `findOrganizationAccess`, but throws: NOT_FOUND for a non-member (exactly as for an id
 * that does not exist), FORBIDDEN for a member whose role or token scope does not allow `action`.
 */
export async function requireOrganizationAccess(
  on: DataSource | EntityManager,
  caller: Caller,
  organizationId: string,
  need: AccessNeed,
  action: string,
  options: { lock?: boolean } = {},
): Promise<OrganizationAccess> {
  const access = await findOrganizationAccess(on, caller, organizationId, options);
  if (!access) throw new AppError('NOT_FOUND', 'Organization not found');
  assertAllowed(caller, access.role, needOf(need), action);
  return access;
}
