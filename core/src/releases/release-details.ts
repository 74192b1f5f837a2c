import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { registerRelease, requireReleaseHealth } from './releases';

/**
 * A version as sentry-cli sees it (one record per version, whatever the environments it was
 * deployed to): when it was created, finalized, its commits and deploys. Read by `/api/0/`.
 */
export interface ReleaseSummary {
  version: string;
  url: string | null;
  dateCreated: Date;
  dateReleased: Date | null;
  /** Environments it is registered for, oldest deploy first. */
  environments: string[];
  commitCount: number;
  /** The newest commit as set-commits sent it (the first one), or null. */
  lastCommit: { id: string; repository: string } | null;
}

/**
 * `releases new` (and the bundler plugins): registers the version exactly as `/ingest/release`
 * does (the plan gate, then `registerRelease` for `production`, bumping its deploy time when it
 * exists), and records when it was created through the API. `dateReleased` and `url` when sent.
 */
export async function createReleaseVersion(
  ds: DataSource,
  input: { projectId: string; version: string; url?: string | null; dateReleased?: Date | null; at?: Date },
): Promise<ReleaseSummary> {
  await requireReleaseHealth(ds, input.projectId);
  await registerRelease(ds, { projectId: input.projectId, version: input.version, at: input.at });
  await upsertDetails(ds, input.projectId, input.version, { url: input.url, dateReleased: input.dateReleased });
  return (await findReleaseSummary(ds, input.projectId, input.version))!;
}

/**
 * `releases finalize` and other updates of a release that exists: stores `dateReleased` (and
 * `url`) when sent. NOT_FOUND when the version was never registered for the project.
 */
export async function updateReleaseVersion(
  ds: DataSource,
  input: { projectId: string; version: string; url?: string | null; dateReleased?: Date | null },
): Promise<ReleaseSummary> {
  await requireReleaseHealth(ds, input.projectId);
  await requireReleaseSummary(ds, input.projectId, input.version);
  await upsertDetails(ds, input.projectId, input.version, { url: input.url, dateReleased: input.dateReleased });
  return (await findReleaseSummary(ds, input.projectId, input.version))!;
}

/**
 * `deploys new`: the version is registered for the deploy's environment, as `/ingest/release`
 * registers it (plan gate, deploy time bumped), so regressions and release health see it.
 */
export async function registerReleaseDeploy(
  ds: DataSource,
  input: { projectId: string; version: string; environment: string; at?: Date },
): Promise<{ environment: string; deployedAt: Date }> {
  await requireReleaseHealth(ds, input.projectId);
  const release = await registerRelease(ds, input);
  await upsertDetails(ds, input.projectId, input.version, {});
  return { environment: release.environment, deployedAt: release.deployedAt };
}

/** The version's summary, or null when it was never registered (by the API, a token or the dashboard). */
export async function findReleaseSummary(
  ds: DataSource,
  projectId: string,
  version: string,
): Promise<ReleaseSummary | null> {
  const [row] = await queryRows<{
    created: Date | null;
    environments: string[] | null;
    url: string | null;
    date_released: Date | null;
    detail_created: Date | null;
    commit_count: number;
    last_commit_id: string | null;
    last_commit_repository: string | null;
  }>(
    ds,
    `SELECT
       (SELECT min(created_at) FROM releases WHERE project_id = $1 AND version = $2) AS created,
       (SELECT array_agg(environment ORDER BY deployed_at) FROM releases WHERE project_id = $1 AND version = $2) AS environments,
       d.url, d.date_released, d.created_at AS detail_created,
       (SELECT count(*)::int FROM release_commits WHERE project_id = $1 AND version = $2) AS commit_count,
       c.commit_id AS last_commit_id, c.repository AS last_commit_repository
     FROM (SELECT 1) one
     LEFT JOIN release_details d ON d.project_id = $1 AND d.version = $2
     LEFT JOIN release_commits c ON c.project_id = $1 AND c.version = $2 AND c.position = 0`,
    [projectId, version],
  );
  if (!row || (row.created === null && row.detail_created === null)) return null;
  const times = [row.created, row.detail_created].filter((t): t is Date => t !== null).map((t) => new Date(t));
  return {
    version,
    url: row.url,
    dateCreated: new Date(Math.min(...times.map((t) => t.getTime()))),
    dateReleased: row.date_released ? new Date(row.date_released) : null,
    environments: row.environments ?? [],
    commitCount: Number(row.commit_count),
    lastCommit: row.last_commit_id ? { id: row.last_commit_id, repository: row.last_commit_repository! } : null,
  };
}

/** Like `findReleaseSummary`, NOT_FOUND when missing. */
export async function requireReleaseSummary(
  ds: DataSource,
  projectId: string,
  version: string,
): Promise<ReleaseSummary> {
  const summary = await findReleaseSummary(ds, projectId, version);
  if (!summary) throw new AppError('NOT_FOUND', `release "${version}" not found: create it first (releases new)`);
  return summary;
}

async function upsertDetails(
  ds: DataSource,
  projectId: string,
  version: string,
  change: { url?: string | null; dateReleased?: Date | null },
): Promise<void> {
  // A field not sent keeps its value: finalize sends only dateReleased.
  await ds.query(
    `INSERT INTO release_details (project_id, version, url, date_released) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id, version) DO UPDATE SET
       url = CASE WHEN $5 THEN excluded.url ELSE release_details.url END,
       date_released = CASE WHEN $6 THEN excluded.date_released ELSE release_details.date_released END`,
    [
      projectId,
      version,
      change.url ?? null,
      change.dateReleased?.toISOString() ?? null,
      change.url !== undefined,
      change.dateReleased !== undefined,
    ],
  );
}

/** The environments the version is registered for, newest deploy first. */
export async function listReleaseDeploys(
  ds: DataSource,
  projectId: string,
  version: string,
): Promise<Array<{ environment: string; deployedAt: Date }>> {
  const rows = await queryRows<{ environment: string; deployed_at: Date }>(
    ds,
    'SELECT environment, deployed_at FROM releases WHERE project_id = $1 AND version = $2 ORDER BY deployed_at DESC',
    [projectId, version],
  );
  return rows.map((r) => ({ environment: r.environment, deployedAt: new Date(r.deployed_at) }));
}
