import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { Organization, type PlanId } from '../entities';

export const PLAN_IDS: readonly PlanId[] = ['free', 'pro', 'business'];

/** Operator path for a plan change (support, invoicing outside Stripe). */
export async function setOrganizationPlan(ds: DataSource, slug: string, plan: string): Promise<Organization> {
  if (!(PLAN_IDS as readonly string[]).includes(plan)) {
    throw new AppError('BAD_USER_INPUT', `unknown plan "${plan}": expected one of ${PLAN_IDS.join(', ')}`);
  }
  const org = await ds.manager.findOneBy(Organization, { slug });
  if (!org) throw new AppError('NOT_FOUND', `no organization with slug "${slug}"`);
  org.plan = plan as PlanId;
  return ds.manager.save(org);
}
