import type { DataSource } from 'typeorm';
import { requireOrganizationAccess, type Caller } from '../access';
import { Organization, User } from '../entities';
import { AppError } from '../errors';
import { auditSourceOf, recordAudit } from '../audit/record-audit';

/**
 * Owners turn "require two-factor" on or off. An owner without two-factor cannot turn it on: they
 * would lock themselves out of their own organization until they enrol.
 */
export async function setRequireTwoFactor(
  ds: DataSource,
  caller: Caller,
  organizationId: string,
  required: boolean,
): Promise<Organization> {
  const access = await requireOrganizationAccess(
    ds,
    caller,
    organizationId,
    { roles: ['owner'], scope: 'admin' },
    'require two-factor authentication',
  );
  if (required) {
    const me = await ds.manager.findOneByOrFail(User, { id: caller.userId });
    if (!me.totpSecret) {
      throw new AppError(
        'CONFLICT',
        'Turn on two-factor authentication for your own account first (/account/two-factor)',
      );
    }
  }
  await ds.transaction(async (em) => {
    await em.update(Organization, { id: organizationId }, { requireTwoFactor: required });
    await recordAudit(em, {
      organizationId,
      ...auditSourceOf(caller),
      action: 'organization.require_two_factor_changed',
      target: { type: 'organization', id: organizationId, label: access.organization.slug },
      changes: {
        before: { requireTwoFactor: access.organization.requireTwoFactor },
        after: { requireTwoFactor: required },
      },
    });
  });
  return { ...access.organization, requireTwoFactor: required };
}
