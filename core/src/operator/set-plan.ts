import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { Organization } from '../entities';
import { isPlanId, PLAN_IDS } from '../plans';
import { recordAudit } from '../audit/record-audit';

/**
 * Operator path for a plan change (support, invoicing outside Stripe). The audit row names the
 * operator as the actor (`operator`, or who ran it when the command is told), in the same
 * transaction as the change.
 */
export async function setOrganizationPlan(
  ds: DataSource,
  slug: string,
  plan: string,
  actorName = 'operator',
): Promise<Organization> {
  if (!isPlanId(plan)) {
    throw new AppError('BAD_USER_INPUT', `unknown plan "${plan}": expected one of ${PLAN_IDS.join(', ')}`);
  }
  return ds.transaction(async (em) => {
    const org = await em
      .createQueryBuilder(Organization, 'o')
      .where('o.slug = :slug', { slug })
      .setLock('pessimistic_write')
      .getOne();
    if (!org) throw new AppError('NOT_FOUND', `no organization with slug "${slug}"`);
    const before = org.plan;
    org.plan = plan;
    const saved = await em.save(org);
    if (before !== plan) {
      await recordAudit(em, {
        organizationId: org.id,
        actor: { type: 'system', name: actorName },
        action: 'organization.plan_changed',
        target: { type: 'organization', id: org.id, label: org.slug },
        changes: { before: { plan: before }, after: { plan } },
      });
    }
    return saved;
  });
}
