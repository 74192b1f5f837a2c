import type { DataSource } from 'typeorm';
import { requireProjectAccess, type Caller } from '../access';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { requireReleaseHealth } from './releases';
import { requireReleaseSummary } from './release-details';

/** Commits one set-commits may give a release (sentry-cli sends 20 by default). */
export const MAX_COMMITS_PER_RELEASE = 1_000;
/** Changed paths kept per commit: a huge merge keeps its first ones (suspect matching reads these). */
export const MAX_FILES_PER_COMMIT = 1_000;

/** One commit of a release, as `releases set-commits` sends it (`--local`, or a ref's head). */
export interface ReleaseCommit {
  id: string;
  repository: string;
  authorName: string | null;
  authorEmail: string | null;
  message: string | null;
  timestamp: Date | null;
  /** Paths the commit changed, relative to the repository root. */
  files: string[];
}

/**
 * Replaces the release's commits with `commits` (newest first, as sent), as Sentry's
 * set-commits does; an empty list clears them. The version must exist. BAD_USER_INPUT beyond
 * `MAX_COMMITS_PER_RELEASE`; paths beyond `MAX_FILES_PER_COMMIT` per commit are dropped.
 */
export async function setReleaseCommits(
  ds: DataSource,
  input: { projectId: string; version: string; commits: readonly ReleaseCommit[] },
): Promise<number> {
  if (input.commits.length > MAX_COMMITS_PER_RELEASE) {
    throw new AppError(
      'BAD_USER_INPUT',
      `commits: at most ${MAX_COMMITS_PER_RELEASE} per release (got ${input.commits.length}); lower --initial-depth`,
    );
  }
  await requireReleaseHealth(ds, input.projectId);
  await requireReleaseSummary(ds, input.projectId, input.version);
  await ds.transaction(async (em) => {
    await em.query('DELETE FROM release_commits WHERE project_id = $1 AND version = $2', [
      input.projectId,
      input.version,
    ]);
    if (input.commits.length === 0) return;
    // One multi-row INSERT from arrays: 1,000 commits are one statement, not 1,000.
    const c = input.commits;
    await em.query(
      `INSERT INTO release_commits
         (project_id, version, position, commit_id, repository, author_name, author_email, message, committed_at, files)
       SELECT $1, $2, t.position - 1, t.commit_id, t.repository, t.author_name, t.author_email, t.message, t.committed_at,
              ARRAY(SELECT jsonb_array_elements_text(t.files))
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::jsonb[])
         WITH ORDINALITY AS t(commit_id, repository, author_name, author_email, message, committed_at, files, position)`,
      [
        input.projectId,
        input.version,
        c.map((x) => x.id),
        c.map((x) => x.repository),
        c.map((x) => x.authorName),
        c.map((x) => x.authorEmail),
        c.map((x) => x.message),
        c.map((x) => x.timestamp?.toISOString() ?? null),
        c.map((x) => JSON.stringify(x.files.slice(0, MAX_FILES_PER_COMMIT))),
      ],
    );
  });
  return input.commits.length;
}

interface CommitRow {
  commit_id: string;
  repository: string;
  author_name: string | null;
  author_email: string | null;
  message: string | null;
  committed_at: Date | null;
  files: string[];
}

export function commitFromRow(r: CommitRow): ReleaseCommit {
  return {
    id: r.commit_id,
    repository: r.repository,
    authorName: r.author_name,
    authorEmail: r.author_email,
    message: r.message,
    timestamp: r.committed_at ? new Date(r.committed_at) : null,
    files: r.files ?? [],
  };
}

/** The release's commits, newest first (by time, then as sent); at most `first` (≤ 1,000). */
export async function readReleaseCommits(
  ds: DataSource,
  projectId: string,
  version: string,
  first = 100,
): Promise<ReleaseCommit[]> {
  const rows = await queryRows<CommitRow>(
    ds,
    `SELECT commit_id, repository, author_name, author_email, message, committed_at, files FROM release_commits
     WHERE project_id = $1 AND version = $2 ORDER BY committed_at DESC NULLS LAST, position LIMIT $3`,
    [projectId, version, Math.min(Math.max(first, 1), MAX_COMMITS_PER_RELEASE)],
  );
  return rows.map(commitFromRow);
}

/** Members who may read the project: the release's commits, newest first. */
export async function listReleaseCommits(
  ds: DataSource,
  caller: Caller,
  input: { projectId: string; version: string; first?: number },
): Promise<ReleaseCommit[]> {
  await requireProjectAccess(ds, caller, input.projectId, 'read', 'see release commits');
  return readReleaseCommits(ds, input.projectId, input.version, input.first);
}

/**
 * The newest other release of the project that has commits (by creation), with its newest
 * commit: sentry-cli's `--local` reads the range from there to HEAD. Null when none.
 */
export async function findPreviousReleaseWithCommits(
  ds: DataSource,
  projectId: string,
  version: string,
): Promise<{ version: string; lastCommitId: string } | null> {
  const [row] = await queryRows<{ version: string; commit_id: string }>(
    ds,
    `SELECT d.version, c.commit_id FROM release_details d
     JOIN release_commits c ON c.project_id = d.project_id AND c.version = d.version AND c.position = 0
     WHERE d.project_id = $1 AND d.version <> $2
       AND d.created_at <= coalesce((SELECT created_at FROM release_details WHERE project_id = $1 AND version = $2), now())
     ORDER BY d.created_at DESC LIMIT 1`,
    [projectId, version],
  );
  return row ? { version: row.version, lastCommitId: row.commit_id } : null;
}
