import type { DataSource } from 'typeorm';
import { isUuid, requireInstanceAdmin, type Caller } from '../access';
import { isLiveSubscription } from '../billing/subscription-plan';
import { queryRows } from '../db/query-rows';
import type { PlanId } from '../entities';
import { AppError } from '../errors';
import { planLimit, planOf } from '../plans';
import { meterUsage, type MeterUsage } from '../quotas/organization-usage';
import { quotaPeriod } from '../quotas/period';
import type { UsageReader } from '../quotas/usage-reader';

/**
 * An organization as the admin screen shows it: counts, never data (decision 051). No member's
 * email, no project's name, no issue: what an admin needs to set a plan and see the load.
 */
export interface AdminOrganization {
  id: string;
  name: string;
  slug: string;
  plan: PlanId;
  createdAt: Date;
  members: number;
  projects: number;
  /** Stripe's status of its subscription, when it has one that still bills (a hand change needs force). */
  liveSubscription: string | null;
  events: MeterUsage;
  logs: MeterUsage;
}

export interface AdminOrganizationPage {
  nodes: AdminOrganization[];
  totalCount: number;
  /** The cursor of the last node, when more follow. */
  endCursor: string | null;
}

const MAX_FIRST = 100;

interface Row {
  id: string;
  name: string;
  slug: string;
  plan: PlanId;
  created_at: Date;
  members: number;
  projects: number;
  subscription_status: string | null;
}

/** Every organization of the instance, by slug, `first` at a time (instance admins only). */
export async function listOrganizationsForAdmin(
  ds: DataSource,
  caller: Caller,
  reader: UsageReader,
  options: { first?: number; after?: string | null; now?: Date } = {},
): Promise<AdminOrganizationPage> {
  await requireInstanceAdmin(ds, caller, 'list the organizations of the instance');
  const first = options.first ?? 50;
  if (!Number.isInteger(first) || first < 1 || first > MAX_FIRST) {
    throw new AppError('BAD_USER_INPUT', `first: must be between 1 and ${MAX_FIRST}`);
  }
  const after = options.after ? decodeCursor(options.after) : null;
  const rows = await readRows(ds, 'WHERE ($1::text IS NULL OR o.slug > $1) ORDER BY o.slug LIMIT $2', [
    after,
    first + 1,
  ]);
  const [{ n: totalCount }] = await queryRows<{ n: number }>(ds, 'SELECT count(*)::int AS n FROM organizations');
  const page = rows.slice(0, first);
  return {
    nodes: await withUsage(reader, page, options.now),
    totalCount,
    endCursor: rows.length > first ? encodeCursor(page[page.length - 1].slug) : null,
  };
}

/** One organization as the list shows it (instance admins only); NOT_FOUND when there is none. */
export async function findOrganizationForAdmin(
  ds: DataSource,
  caller: Caller,
  reader: UsageReader,
  organizationId: string,
  now?: Date,
): Promise<AdminOrganization> {
  await requireInstanceAdmin(ds, caller, 'read an organization of the instance');
  const rows = isUuid(organizationId) ? await readRows(ds, 'WHERE o.id = $1', [organizationId]) : [];
  if (rows.length === 0) throw new AppError('NOT_FOUND', 'Organization not found');
  return (await withUsage(reader, rows, now))[0];
}

async function readRows(ds: DataSource, where: string, params: unknown[]): Promise<Row[]> {
  return queryRows<Row>(
    ds,
    `SELECT o.id, o.name, o.slug, o.plan, o.created_at, b.subscription_status,
            (SELECT count(*)::int FROM memberships m WHERE m.organization_id = o.id) AS members,
            (SELECT count(*)::int FROM projects p WHERE p.organization_id = o.id) AS projects
       FROM organizations o LEFT JOIN billing_accounts b ON b.organization_id = o.id
      ${where}`,
    params,
  );
}

/** This month's counts, from wherever the edge counts them (Redis or the database), in one read. */
async function withUsage(reader: UsageReader, rows: Row[], now = new Date()): Promise<AdminOrganization[]> {
  const counted = rows.length > 0 ? await reader.listActive(quotaPeriod(now)) : new Map();
  return rows.map((r): AdminOrganization => {
    const plan = planOf(r.plan);
    const used = counted.get(r.id) ?? { events: 0, logs: 0 };
    return {
      id: r.id,
      name: r.name,
      slug: r.slug,
      plan: r.plan,
      createdAt: new Date(r.created_at),
      members: Number(r.members),
      projects: Number(r.projects),
      liveSubscription: isLiveSubscription(r.subscription_status) ? r.subscription_status : null,
      events: meterUsage(used.events, planLimit(plan, 'events')),
      logs: meterUsage(used.logs, planLimit(plan, 'logs')),
    };
  });
}

function encodeCursor(slug: string): string {
  return Buffer.from(`org:${slug}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  const text = cursor.length <= 400 ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!text.startsWith('org:')) throw new AppError('BAD_USER_INPUT', 'after: not a cursor this API issued');
  return text.slice(4);
}
