import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { commitFromRow, type ReleaseCommit } from './release-commits';

/** Commits shown per release in a list (the dashboard's release view, GraphQL `Release.commits`). */
export const COMMITS_PER_RELEASE_SHOWN = 100;

/** What sentry-cli added to a version: its finalize time and its commits (newest first). */
export interface ReleaseVersionDetails {
  dateReleased: Date | null;
  commits: ReleaseCommit[];
}

/** The key a release row's version is read by. */
export function releaseVersionKey(projectId: string, version: string): string {
  return `${projectId}\u0000${version}`;
}

/**
 * Details of many versions in two queries, for a page of releases (keys from
 * `releaseVersionKey`); each version's commits bounded by `COMMITS_PER_RELEASE_SHOWN`. The
 * caller has already been allowed to read the releases' projects.
 */
export async function findReleaseVersionDetails(
  ds: DataSource,
  keys: readonly string[],
): Promise<Map<string, ReleaseVersionDetails>> {
  const result = new Map<string, ReleaseVersionDetails>();
  if (keys.length === 0) return result;
  const pairs = keys.map((k) => k.split('\u0000') as [string, string]);
  const projects = pairs.map((p) => p[0]);
  const versions = pairs.map((p) => p[1]);
  for (const k of keys) result.set(k, { dateReleased: null, commits: [] });
  const details = await queryRows<{ project_id: string; version: string; date_released: Date | null }>(
    ds,
    `SELECT d.project_id, d.version, d.date_released FROM unnest($1::uuid[], $2::text[]) AS k(project_id, version)
     JOIN release_details d ON d.project_id = k.project_id AND d.version = k.version`,
    [projects, versions],
  );
  for (const d of details) {
    const entry = result.get(releaseVersionKey(d.project_id, d.version));
    if (entry) entry.dateReleased = d.date_released ? new Date(d.date_released) : null;
  }
  const commits = await queryRows<Parameters<typeof commitFromRow>[0] & { project_id: string; version: string }>(
    ds,
    `SELECT k.project_id, k.version, c.* FROM unnest($1::uuid[], $2::text[]) AS k(project_id, version)
     CROSS JOIN LATERAL (
       SELECT commit_id, repository, author_name, author_email, message, committed_at, files FROM release_commits
       WHERE project_id = k.project_id AND version = k.version
       ORDER BY committed_at DESC NULLS LAST, position LIMIT $3
     ) c`,
    [projects, versions, COMMITS_PER_RELEASE_SHOWN],
  );
  for (const c of commits) result.get(releaseVersionKey(c.project_id, c.version))?.commits.push(commitFromRow(c));
  return result;
}
