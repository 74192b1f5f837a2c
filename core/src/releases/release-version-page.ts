import type { DataSource } from 'typeorm';
import { requireProjectAccess, type Caller } from '../access';
import { queryRows } from '../db/query-rows';
import { Release } from '../entities';

/** Longest version any door registers (`/ingest/release`, Mark release, sentry-cli). */
const MAX_VERSION_CHARS = 200;

/**
 * One version of a project across the environments it was deployed to: what the release detail
 * page shows at its top. Its lists (issues, files, commits) are read apart, each bounded.
 */
export interface ReleaseVersionView {
  projectId: string;
  version: string;
  /** When it was first registered (any door), or created through sentry-cli's API if earlier. */
  dateCreated: Date;
  /** `sentry-cli releases finalize`; null before. */
  dateReleased: Date | null;
  /** One release record per environment it is registered for, newest deploy first. */
  deploys: Release[];
}

/**
 * The version as the release detail page reads it. NOT_FOUND when the caller may not read the
 * project (exactly as for a project that does not exist: `listReleases`' rule); null when the
 * project has no release record of that version (seen on events only, or never heard of).
 */
export async function findReleaseVersion(
  ds: DataSource,
  caller: Caller,
  projectId: string,
  version: string,
): Promise<ReleaseVersionView | null> {
  const { project } = await requireProjectAccess(ds, caller, projectId, 'read', 'see releases');
  // No door registers a longer or empty version, so it cannot exist; not worth a query.
  if (version.length === 0 || version.length > MAX_VERSION_CHARS) return null;
  const deploys = await ds.manager
    .createQueryBuilder(Release, 'r')
    .where('r.project_id = :projectId AND r.version = :version', { projectId: project.id, version })
    .orderBy('r.deployed_at', 'DESC')
    .addOrderBy('r.id', 'DESC')
    .getMany();
  if (deploys.length === 0) return null;
  const [details] = await queryRows<{ date_released: Date | null; created_at: Date }>(
    ds,
    'SELECT date_released, created_at FROM release_details WHERE project_id = $1 AND version = $2',
    [project.id, version],
  );
  const created = Math.min(
    ...deploys.map((d) => d.createdAt.getTime()),
    details ? new Date(details.created_at).getTime() : Infinity,
  );
  return {
    projectId: project.id,
    version,
    dateCreated: new Date(created),
    dateReleased: details?.date_released ? new Date(details.date_released) : null,
    deploys,
  };
}
