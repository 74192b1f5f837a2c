import type { DataSource, EntityManager } from 'typeorm';
import { requireProjectAccess, type Caller } from '../access';
import { queryRows } from '../db/query-rows';
import { Organization, Project, Release } from '../entities';
import { AppError } from '../errors';
import type { ReleaseRecord } from '../lifecycle';
import { planOf, releaseHealthPlanNames } from '../plans';

/** A release registered without an environment is `production` (docs/releases-and-lifecycle.md). */
export const DEFAULT_ENVIRONMENT = 'production';

/**
 * Release health (registering releases and what they drive) needs Pro or above. Checked on both
 * paths that register releases: the upload token and the dashboard's Mark release.
 */
export async function requireReleaseHealth(ds: DataSource | EntityManager, projectId: string): Promise<void> {
  const em = 'manager' in ds ? ds.manager : ds;
  const org = await em
    .createQueryBuilder(Organization, 'o')
    .innerJoin(Project, 'p', 'p.organization_id = o.id')
    .where('p.id = :projectId', { projectId })
    .getOne();
  if (!org) throw new AppError('NOT_FOUND', 'Project not found');
  if (!planOf(org.plan).releaseHealth) {
    throw new AppError(
      'PLAN_REQUIRED',
      `release health is not included in the ${planOf(org.plan).name} plan: upgrade to ${releaseHealthPlanNames()} to register releases`,
    );
  }
}

/**
 * Registers `version` for `environment`, or bumps its deploy time when it already is: a
 * redeploy of the same version counts as the newest deploy (docs/releases-and-lifecycle.md).
 */
export async function registerRelease(
  ds: DataSource,
  input: { projectId: string; version: string; environment?: string | null; at?: Date },
): Promise<Release> {
  const environment = input.environment || DEFAULT_ENVIRONMENT;
  const at = input.at ?? new Date();
  const [row] = await queryRows<{ id: string; deployed_at: Date; created_at: Date }>(
    ds,
    `INSERT INTO releases (project_id, version, environment, deployed_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id, version, environment) DO UPDATE SET deployed_at = greatest(releases.deployed_at, excluded.deployed_at)
     RETURNING id, deployed_at, created_at`,
    [input.projectId, input.version, environment, at.toISOString()],
  );
  return Object.assign(new Release(), {
    id: row.id,
    projectId: input.projectId,
    version: input.version,
    environment,
    deployedAt: new Date(row.deployed_at),
    createdAt: new Date(row.created_at),
  });
}

/** Newest first by deploy time; optionally one environment. NOT_FOUND unless the caller may read the project. */
export async function listReleases(
  ds: DataSource,
  caller: Caller,
  projectId: string,
  options: { environment?: string | null; first?: number } = {},
): Promise<Release[]> {
  await requireProjectAccess(ds, caller, projectId, 'read', 'see releases');
  const qb = ds.manager
    .createQueryBuilder(Release, 'r')
    .where('r.project_id = :projectId', { projectId })
    .orderBy('r.deployed_at', 'DESC')
    .addOrderBy('r.id', 'DESC')
    .take(Math.min(Math.max(options.first ?? 100, 1), 500));
  if (options.environment) qb.andWhere('r.environment = :environment', { environment: options.environment });
  return qb.getMany();
}

/** The project's newest release record by deploy time (any environment): what "resolved in" records. */
export async function findNewestRelease(em: EntityManager, projectId: string): Promise<ReleaseRecord | null> {
  const r = await em
    .createQueryBuilder(Release, 'r')
    .where('r.project_id = :projectId', { projectId })
    .orderBy('r.deployed_at', 'DESC')
    .addOrderBy('r.id', 'DESC')
    .getOne();
  return r ? toRecord(r) : null;
}

export function toRecord(r: Release): ReleaseRecord {
  return { id: r.id, version: r.version, environment: r.environment, deployedAt: r.deployedAt };
}
