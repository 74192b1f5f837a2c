import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { Organization } from '../entities';
import { isPlanId, PLAN_IDS } from '../plans';

/** Operator path for a plan change (support, invoicing outside Stripe). */
export async function setOrganizationPlan(ds: DataSource, slug: string, plan: string): Promise<Organization> {
  if (!isPlanId(plan)) {
    throw new AppError('BAD_USER_INPUT', `unknown plan "${plan}": expected one of ${PLAN_IDS.join(', ')}`);
  }
  const org = await ds.manager.findOneBy(Organization, { slug });
  if (!org) throw new AppError('NOT_FOUND', `no organization with slug "${slug}"`);
  org.plan = plan;
  return ds.manager.save(org);
}
