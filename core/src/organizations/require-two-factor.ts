import type { DataSource } from 'typeorm';
import { requireOrganizationAccess, type Caller } from '../access';
import { Organization, User } from '../entities';
import { AppError } from '../errors';
import { auditSourceOf, recordAudit } from '../audit/record-audit';

/**
 * Owners turn "require two-factor" on or off. An owner without two-factor cannot turn it on: they
 * would lock themselves out of their own organization until they enrol. Setting the value it
 * already has changes nothing and records nothing (the audit log lists changes, not clicks).
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
    // Read again under a lock: two owners toggling at once each record the change they made.
    const [row] = (await em.query('SELECT require_two_factor FROM organizations WHERE id = $1 FOR UPDATE', [
      organizationId,
    ])) as { require_two_factor: boolean }[];
    if (row?.require_two_factor === required) return;
    await em.update(Organization, { id: organizationId }, { requireTwoFactor: required });
    await recordAudit(em, {
      organizationId,
      ...auditSourceOf(caller),
      action: 'organization.require_two_factor_changed',
      target: { type: 'organization', id: organizationId, label: access.organization.slug },
      changes: {
        before: { requireTwoFactor: !required },
        after: { requireTwoFactor: required },
      },
    });
  });
  return { ...access.organization, requireTwoFactor: required };
}
