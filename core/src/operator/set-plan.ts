import type { DataSource } from 'typeorm';
import { isUuid } from '../access/is-uuid';
import { isLiveSubscription } from '../billing/subscription-plan';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import type { Organization, PlanId } from '../entities';
import { isPlanId, PLAN_IDS } from '../plans';
import { recordAudit } from '../audit/record-audit';

export interface PlanChangeInput {
  /** The organization, by slug (the operator command) or by id (the admin screen). */
  organization: { slug: string } | { id: string };
  plan: string;
  /** Change it even though a live Stripe subscription sets this organization's plan. */
  force?: boolean;
  /** The instance admin making the change; absent for the operator command. */
  adminUserId?: string;
}

export interface PlanChange {
  organization: Organization;
  planBefore: PlanId;
  /** The status of the live Stripe subscription that `force` overrode, if any. */
  overrodeSubscription: string | null;
}

interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  plan: PlanId;
  created_at: Date;
  require_two_factor: boolean;
  subscription_status: string | null;
}

/**
 * Sets an organization's plan by hand (support, invoicing outside Stripe), at once: the API and
 * the dashboard read the plan on every request, the ingest edge within its plan cache's 5 s.
 * Recorded in `billing_log` (reason `operator` or `admin`, with the admin's id). An organization
 * with a live Stripe subscription is refused unless `force`: Stripe's next event for it would
 * set the plan back to what is paid for, so a hand change there is a deliberate exception.
 */
export async function changeOrganizationPlan(ds: DataSource, input: PlanChangeInput): Promise<PlanChange> {
  const { plan } = input;
  if (!isPlanId(plan)) {
    throw new AppError('BAD_USER_INPUT', `unknown plan "${plan}": expected one of ${PLAN_IDS.join(', ')}`);
  }
  const bySlug = 'slug' in input.organization;
  const key = 'slug' in input.organization ? input.organization.slug : input.organization.id;
  const missing = () =>
    new AppError('NOT_FOUND', bySlug ? `no organization with slug "${key}"` : 'Organization not found');
  if (!bySlug && !isUuid(key)) throw missing();
  return ds.transaction(async (em) => {
    const [row] = await queryRows<OrganizationRow>(
      em,
      `SELECT o.id, o.name, o.slug, o.plan, o.created_at, o.require_two_factor, b.subscription_status
         FROM organizations o LEFT JOIN billing_accounts b ON b.organization_id = o.id
        WHERE ${bySlug ? 'o.slug' : 'o.id'} = $1
          FOR UPDATE OF o`,
      [key],
    );
    if (!row) throw missing();
    const live = isLiveSubscription(row.subscription_status) ? row.subscription_status : null;
    if (live && !input.force) {
      throw new AppError(
        'CONFLICT',
        `${row.slug} has a live Stripe subscription (${live}): its plan follows what is paid for. Change the ` +
          `subscription in Stripe, or force the change (Stripe's next event for it sets the plan again).`,
      );
    }
    await em.query('UPDATE organizations SET plan = $2 WHERE id = $1', [row.id, plan]);
    await em.query(
      `INSERT INTO billing_log (organization_id, stripe_event_id, reason, plan_before, plan_after,
                                subscription_status, changed_by)
       VALUES ($1, NULL, $2, $3, $4, $5, $6)`,
      [
        row.id,
        input.adminUserId ? 'admin' : 'operator',
        row.plan,
        plan,
        row.subscription_status,
        input.adminUserId ?? null,
      ],
    );
    if (row.plan !== plan) {
      // In the change's transaction (decision 061): no plan change without its audit row.
      await recordAudit(em, {
        organizationId: row.id,
        actor: input.adminUserId ? { type: 'user', userId: input.adminUserId } : { type: 'system', name: 'operator' },
        action: 'organization.plan_changed',
        target: { type: 'organization', id: row.id, label: row.slug },
        changes: { before: { plan: row.plan }, after: { plan, ...(live ? { forcedOver: live } : {}) } },
      });
    }
    return {
      organization: {
        id: row.id,
        name: row.name,
        slug: row.slug,
        plan,
        createdAt: new Date(row.created_at),
        requireTwoFactor: row.require_two_factor,
      },
      planBefore: row.plan,
      overrodeSubscription: live,
    };
  });
}

/** The operator command's form: by slug, recorded as `operator`. */
export async function setOrganizationPlan(
  ds: DataSource,
  slug: string,
  plan: string,
  options: { force?: boolean } = {},
): Promise<Organization> {
  return (await changeOrganizationPlan(ds, { organization: { slug }, plan, force: options.force })).organization;
}
