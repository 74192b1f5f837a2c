import type { DataSource } from 'typeorm';
import { requireOrganizationAccess, type Caller } from '../access';
import { readOrganizationUsage, type OrganizationUsage } from './organization-usage';
import type { UsageReader } from './usage-reader';

/** The organization's usage this period, for any of its members; NOT_FOUND for anyone else. */
export async function readMemberUsage(
  ds: DataSource,
  reader: UsageReader,
  caller: Caller,
  organizationId: string,
): Promise<OrganizationUsage> {
  const { organization } = await requireOrganizationAccess(ds, caller, organizationId, 'read', 'see usage');
  return readOrganizationUsage(reader, organization);
}
