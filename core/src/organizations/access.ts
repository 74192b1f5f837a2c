import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { ROLES_BY_RANK } from './roles';
import type { Organization, PlanId, Role } from '../entities';
import { AppError } from '../errors';
import { isUuid } from '../projects/find-project';

export interface OrganizationAccess {
  organization: Organization;
  /** The caller's role in it. */
  role: Role;
}

interface Row {
  id: string;
  name: string;
  slug: string;
  plan: PlanId;
  created_at: Date;
  role: Role;
}

/**
 * The organization and the caller's role in it, when the caller is a member; null otherwise,
 * whether or not it exists. With `lock`, the organization row is locked (FOR UPDATE) until the
 * transaction ends: changes that must keep "at least one owner" true serialize on it.
 */
export async function findOrganizationAccess(
  on: DataSource | EntityManager,
  userId: string,
  organizationId: string,
  options: { lock?: boolean } = {},
): Promise<OrganizationAccess | null> {
  if (!isUuid(organizationId)) return null;
  const read = () =>
    queryRows<Row>(
      on,
      `SELECT o.id, o.name, o.slug, o.plan, o.created_at, m.role
         FROM organizations o
         JOIN memberships m ON m.organization_id = o.id AND m.user_id = $2
        WHERE o.id = $1`,
      [organizationId, userId],
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
    organization: { id: row.id, name: row.name, slug: row.slug, plan: row.plan, createdAt: new Date(row.created_at) },
    role: row.role,
  };
}

/**
 * Like `findOrganizationAccess`, but throws: NOT_FOUND for a non-member (exactly as for an id
 * that does not exist), FORBIDDEN for a member whose role is not in `roles`.
 */
export async function requireOrganizationAccess(
  on: DataSource | EntityManager,
  userId: string,
  organizationId: string,
  roles: readonly Role[] | 'any',
  action: string,
  options: { lock?: boolean } = {},
): Promise<OrganizationAccess> {
  const access = await findOrganizationAccess(on, userId, organizationId, options);
  if (!access) throw new AppError('NOT_FOUND', 'Organization not found');
  if (roles !== 'any' && !roles.includes(access.role)) {
    const names = ROLES_BY_RANK.filter((r) => roles.includes(r)).map((r) => `${r}s`);
    throw new AppError('FORBIDDEN', `Only ${names.join(' and ')} can ${action}`);
  }
  return access;
}

/** The organization when the user is a member; null when it is missing or not theirs. */
export async function findOrganizationForUser(
  ds: DataSource,
  userId: string,
  organizationId: string,
): Promise<Organization | null> {
  return (await findOrganizationAccess(ds, userId, organizationId))?.organization ?? null;
}
