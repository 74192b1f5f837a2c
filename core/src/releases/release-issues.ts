import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { Issue } from '../entities';
import { issueFromRow, type IssueRow } from '../issues/issue-row';

/** Issues one list of the release detail page may return (`first` is clamped to it). */
export const MAX_RELEASE_ISSUES = 100;

/**
 * What ties an issue to a release on its detail page:
 * - `new`: its first event in an environment carried the version (release health's
 *   "issues introduced": `issue_releases.first_seen = issue_environments.first_seen`);
 * - `regressed`: an event of the version reopened it (`issue_regressions`, resolved issues that
 *   regressed and snoozes that ended);
 * - `resolved`: it is resolved now, and resolving recorded one of the version's release records
 *   as resolved-in. A regression or a manual reopen clears resolved-in, so an issue that came
 *   back is no longer listed here (it is under the release that reopened it).
 */
export type ReleaseIssueKind = 'new' | 'regressed' | 'resolved';

export interface ReleaseIssue {
  issue: Issue;
  /** The environments the tie holds in (new, regressed), or the resolved-in record's. */
  environments: string[];
  /** First seen with the version, the latest regression by it, or the resolution time. */
  at: Date;
}

export interface ReleaseIssueList {
  totalCount: number;
  /** Newest `at` first, at most `first`. */
  nodes: ReleaseIssue[];
}

// Each query answers (issue id, environments, at) per issue; the page and its count read the
// same set. Discarded issues are left out, as on the issues page.
const TIES: Record<ReleaseIssueKind, string> = {
  new: `SELECT ir.issue_id, array_agg(DISTINCT ir.environment ORDER BY ir.environment) AS environments,
                min(ir.first_seen) AS at
           FROM issue_releases ir
           JOIN issues i ON i.id = ir.issue_id
           JOIN issue_environments ie ON ie.issue_id = ir.issue_id AND ie.environment = ir.environment
          WHERE ir.release = $2 AND i.project_id = $1 AND i.discarded_at IS NULL AND ir.first_seen = ie.first_seen
          GROUP BY ir.issue_id`,
  regressed: `SELECT g.issue_id, array_agg(DISTINCT g.environment ORDER BY g.environment) AS environments,
                     max(g.regressed_at) AS at
                FROM issue_regressions g
                JOIN issues i ON i.id = g.issue_id
               WHERE g.project_id = $1 AND g.release = $2 AND i.discarded_at IS NULL
               GROUP BY g.issue_id`,
  resolved: `SELECT i.id AS issue_id, ARRAY[r.environment] AS environments, i.resolved_at AS at
               FROM releases r
               JOIN issues i ON i.resolved_in_release_id = r.id
              WHERE r.project_id = $1 AND r.version = $2 AND i.status = 'resolved' AND i.discarded_at IS NULL`,
};

/**
 * One list of the release detail page, with its full count, in one statement. The caller has
 * already been allowed to read the project (`findReleaseVersion`). Bounded: reads go through
 * `issue_releases_release_idx`, `issue_regressions_release_idx` and the version's few release
 * records, and at most `MAX_RELEASE_ISSUES` issues are returned.
 */
export async function readReleaseIssues(
  ds: DataSource,
  input: { projectId: string; version: string; kind: ReleaseIssueKind; first?: number },
): Promise<ReleaseIssueList> {
  const first = Math.min(Math.max(Math.trunc(input.first ?? 25), 1), MAX_RELEASE_ISSUES);
  const rows = await queryRows<IssueRow & { environments: string[]; at: Date; total: string }>(
    ds,
    `WITH tie AS (${TIES[input.kind]})
     SELECT i.*, tie.environments, tie.at, count(*) OVER () AS total
       FROM tie JOIN issues i ON i.id = tie.issue_id
      ORDER BY tie.at DESC, i.id DESC
      LIMIT $3`,
    [input.projectId, input.version, first],
  );
  // The window count rides on the page's rows (there is no offset: no rows means none at all).
  return {
    totalCount: rows.length > 0 ? Number(rows[0].total) : 0,
    nodes: rows.map((r) => ({ issue: issueFromRow(r), environments: r.environments, at: new Date(r.at) })),
  };
}
