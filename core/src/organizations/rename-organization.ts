import type { DataSource } from 'typeorm';
import { requireOrganizationAccess, type Caller } from '../access';
import { queryRows } from '../db/query-rows';
import type { Organization } from '../entities';
import { AppError } from '../errors';
import { MANAGERS } from './roles';

/**
 * Owners and admins rename their organization (members get FORBIDDEN, strangers NOT_FOUND). The
 * slug stays: it is in links already sent (usage-warning emails, bookmarks).
 */
export async function renameOrganization(
  ds: DataSource,
  caller: Caller,
  organizationId: string,
  name: string,
): Promise<Organization> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new AppError('BAD_USER_INPUT', 'name: must be 1 to 100 characters');
  const { organization } = await requireOrganizationAccess(
    ds,
    caller,
    organizationId,
    // Like renaming a project: nothing is lost, so a `write` token will do.
    { roles: MANAGERS, scope: 'write' },
    'rename the organization',
  );
  await queryRows(ds, 'UPDATE organizations SET name = $1 WHERE id = $2 RETURNING id', [trimmed, organization.id]);
  return { ...organization, name: trimmed };
}
