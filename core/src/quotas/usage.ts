import type { DataSource } from 'typeorm';
import { Organization } from '../entities';
import { planLimit, planOf, type UsageMeter } from '../plans';

/** Monthly limits of the organization's plan, or null for an unknown organization. */
export async function findOrganizationLimits(
  ds: DataSource,
  organizationId: string,
): Promise<Record<UsageMeter, number> | null> {
  const org = await ds.manager.findOne(Organization, {
    where: { id: organizationId },
    select: { id: true, plan: true },
  });
  if (!org) return null;
  const plan = planOf(org.plan);
  return { events: planLimit(plan, 'events'), logs: planLimit(plan, 'logs') };
}

/** Events per month the organization's plan allows, or null for an unknown organization. */
export async function findOrganizationEventLimit(ds: DataSource, organizationId: string): Promise<number | null> {
  return (await findOrganizationLimits(ds, organizationId))?.events ?? null;
}

/**
 * The Redis key of one organization's monthly count for one meter. Every ingest process adds
 * to it (in blocks it then hands out locally, ingest/src/quota/), so it reads as the
 * accepted count plus blocks not yet used, which processes give back after a few idle seconds.
 */
export function usageRedisKey(prefix: string, meter: UsageMeter, organizationId: string, period: string): string {
  return meter === 'events'
    ? `${prefix}:quota:${organizationId}:${period}`
    : `${prefix}:quota:${meter}:${organizationId}:${period}`;
}

/**
 * Reserves up to `want` units of an organization's monthly `meter` in `org_usage` (the
 * embedded backend; with Redis the count lives there): never past `limit`. Answers what was
 * granted (0 when the limit is reached) and the count after the reservation.
 *
 * Embedded mode has one process and PGlite one connection, so the two statements cannot
 * interleave with another reservation.
 */
export async function reserveOrganizationUsage(
  ds: DataSource,
  organizationId: string,
  meter: UsageMeter,
  period: string,
  limit: number,
  want: number,
): Promise<{ granted: number; used: number }> {
  const rows: Array<{ count: number | string }> = await ds.query(
    `INSERT INTO org_usage (organization_id, meter, period, count) VALUES ($1, $2, $3, 0)
     ON CONFLICT (organization_id, meter, period) DO UPDATE SET count = org_usage.count
     RETURNING count`,
    [organizationId, meter, period],
  );
  const before = Number(rows[0].count);
  const granted = Math.max(0, Math.min(want, limit - before));
  if (granted === 0) return { granted: 0, used: before };
  await ds.query('UPDATE org_usage SET count = count + $4 WHERE organization_id = $1 AND meter = $2 AND period = $3', [
    organizationId,
    meter,
    period,
    granted,
  ]);
  return { granted, used: before + granted };
}

/** Gives back reserved units that were not used (never below zero). */
export async function releaseOrganizationUsage(
  ds: DataSource,
  organizationId: string,
  meter: UsageMeter,
  period: string,
  units: number,
): Promise<void> {
  if (units <= 0) return;
  await ds.query(
    'UPDATE org_usage SET count = GREATEST(0, count - $4) WHERE organization_id = $1 AND meter = $2 AND period = $3',
    [organizationId, meter, period, units],
  );
}

/** The period's count of one meter for an organization (0 when nothing was counted). */
export async function findOrganizationUsage(
  ds: DataSource,
  organizationId: string,
  period: string,
  meter: UsageMeter = 'events',
): Promise<number> {
  const rows: Array<{ count: number | string }> = await ds.query(
    'SELECT count FROM org_usage WHERE organization_id = $1 AND meter = $2 AND period = $3',
    [organizationId, meter, period],
  );
  return rows.length ? Number(rows[0].count) : 0;
}
