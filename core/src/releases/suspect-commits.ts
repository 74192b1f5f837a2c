import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { findLatestEvents } from '../issues/find-issue';
import { readReleaseCommits, type ReleaseCommit } from './release-commits';

/** Suspect commits shown per issue. */
export const MAX_SUSPECT_COMMITS = 10;
/** Commits of the release read to find them (the set-commits bound). */
const COMMITS_READ = 1_000;

/** A commit of the issue's first release that changed a file named in its in-app frames. */
export interface SuspectCommit {
  commit: ReleaseCommit;
  /** The version the issue first appeared in. */
  release: string;
  /** The commit's changed paths that an in-app frame names. */
  files: string[];
}

/**
 * Suspect commits (issue 30): the commits of the release the issue first appeared in (its
 * earliest `issue_releases` row) that changed a file named in the in-app frames of its latest
 * event, including the causes' frames. Frames are stored de-minified, so their paths are the
 * source paths a map gave. A frame path and a commit path match when one ends with the other on
 * a `/` boundary (`webpack://app/src/cart.ts` and `web/src/cart.ts` both name `src/cart.ts`).
 * Newest first, at most `MAX_SUSPECT_COMMITS`. Three bounded reads: one row, one event, at most
 * 1,000 commits. The caller has already been allowed to read the issue.
 */
export async function findSuspectCommits(
  ds: DataSource,
  issue: { id: string; projectId: string },
): Promise<SuspectCommit[]> {
  const [first] = await queryRows<{ release: string }>(
    ds,
    `SELECT release FROM issue_releases WHERE issue_id = $1 AND release <> '' ORDER BY first_seen, release LIMIT 1`,
    [issue.id],
  );
  if (!first) return [];
  const event = (await findLatestEvents(ds, [issue.id])).get(issue.id);
  if (!event) return [];
  const frames = [...(event.frames ?? []), ...(event.causes ?? []).flatMap((c) => c.frames ?? [])];
  const paths = new Set(
    frames
      .filter((f) => f.inApp)
      .map((f) => sourcePathOf(f.filename))
      .filter((p) => p !== ''),
  );
  if (paths.size === 0) return [];
  const commits = await readReleaseCommits(ds, issue.projectId, first.release, COMMITS_READ);
  const suspects: SuspectCommit[] = [];
  for (const commit of commits) {
    const files = commit.files.filter((file) => {
      const path = sourcePathOf(file);
      return path !== '' && [...paths].some((p) => isSameSourceFile(p, path));
    });
    if (files.length > 0) suspects.push({ commit, release: first.release, files });
    if (suspects.length === MAX_SUSPECT_COMMITS) break;
  }
  return suspects;
}

/**
 * A frame's or a commit's path reduced to comparable segments: no scheme or host (`https://x/`,
 * `webpack://app/`, `app:///`, `file://`), no query or hash, no leading `./`, `../` or `/`,
 * backslashes as `/`. '' for what names no file (`<anonymous>`, `native`).
 */
export function sourcePathOf(raw: string): string {
  let p = raw.trim().replace(/\\/g, '/');
  if (p === '' || p.startsWith('<') || p.startsWith('[') || p === 'native' || p === 'native code') return '';
  p = p.replace(/[?#].*$/, '');
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(p);
  if (scheme) p = p.slice(scheme[0].length);
  else p = p.replace(/^[a-z][a-z0-9+.-]*:(?!\/)/i, '');
  return p.replace(/^(?:\.{1,2}\/|\/)+/, '').replace(/\/{2,}/g, '/');
}

/** Two paths reduced by `sourcePathOf` name the same file: one ends with the other on a `/` boundary. */
export function isSameSourceFile(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  if (a === b) return true;
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.endsWith(`/${short}`);
}
