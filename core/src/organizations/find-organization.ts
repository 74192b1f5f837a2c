import type { DataSource } from 'typeorm';
import { findOrganizationAccess, type Caller } from '../access';
import type { Organization } from '../entities';

/** The organization when the caller is a member; null when it is missing or not theirs. */
export async function findOrganization(
  ds: DataSource,
  caller: Caller,
  organizationId: string,
): Promise<Organization | null> {
  return (await findOrganizationAccess(ds, caller, organizationId))?.organization ?? null;
}
