import type { DataSource } from 'typeorm';
import { Organization } from '../entities';
import { planOf } from '../plans';

/** Events per month the organization's plan allows, or null for an unknown organization. */
export async function findOrganizationEventLimit(ds: DataSource, organizationId: string): Promise<number | null> {
  const org = await ds.manager.findOne(Organization, { where: { id: organizationId }, select: { id: true, plan: true } });
  return org ? planOf(org.plan).eventsPerMonth : null;
}

/**
 * Counts one event against an organization's quota in `org_usage` (the embedded backend; with
 * Redis the count lives there). One statement: it inserts the period's row or bumps it while it
 * is below `limit`, so an over-quota call changes nothing and returns false.
 */
export async function consumeOrganizationUsage(
  ds: DataSource,
  organizationId: string,
  period: string,
  limit: number,
): Promise<boolean> {
  if (limit <= 0) return false;
  const rows: unknown[] = await ds.query(
    `INSERT INTO org_usage (organization_id, period, count) VALUES ($1, $2, 1)
     ON CONFLICT (organization_id, period) DO UPDATE SET count = org_usage.count + 1
       WHERE org_usage.count < $3
     RETURNING count`,
    [organizationId, period, limit],
  );
  return rows.length > 0;
}

/** The period's count for an organization (0 when nothing was counted). */
export async function findOrganizationUsage(ds: DataSource, organizationId: string, period: string): Promise<number> {
  const rows: Array<{ count: number | string }> = await ds.query(
    'SELECT count FROM org_usage WHERE organization_id = $1 AND period = $2',
    [organizationId, period],
  );
  return rows.length ? Number(rows[0].count) : 0;
}
