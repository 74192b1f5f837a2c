import type { DataSource } from 'typeorm';
import { requireInstanceAdmin, type Caller } from '../access';
import { changeOrganizationPlan, type PlanChange } from '../operator/set-plan';

/** The admin screen's plan change: the operator command's rule, recorded with the admin's id. */
export async function setOrganizationPlanForAdmin(
  ds: DataSource,
  caller: Caller,
  input: { organizationId: string; plan: string; force?: boolean },
): Promise<PlanChange> {
  await requireInstanceAdmin(ds, caller, "change an organization's plan");
  return changeOrganizationPlan(ds, {
    organization: { id: input.organizationId },
    plan: input.plan,
    force: input.force,
    adminUserId: caller.userId,
  });
}
