import { graphql } from '../../graphql';
import type { ReleaseVersionFieldsFragment } from '../../graphql/graphql';
import { formatDateTime } from '../../lib/format';
import { visibleText } from '../../lib/visible-text';

// What sentry-cli adds to a version: read by both release queries of the Releases page.
graphql(`
  fragment ReleaseVersionFields on Release {
    dateReleased
    commits {
      id
      repository
      authorName
      authorEmail
      message
      timestamp
    }
  }
`);

/**
 * Under a release's version: when `sentry-cli releases finalize` marked it released, and the
 * commits `releases set-commits` gave it (newest first), folded away.
 */
export function ReleaseVersionDetails({ release }: { release: Partial<ReleaseVersionFieldsFragment> }) {
  const commits = release.commits ?? [];
  return (
    <>
      {release.dateReleased && (
        <span className="health-previous">finalized {formatDateTime(release.dateReleased)}</span>
      )}
      {commits.length > 0 && (
        <details className="release-commits">
          <summary>
            {commits.length} {commits.length === 1 ? 'commit' : 'commits'}
          </summary>
          <CommitList commits={commits} />
        </details>
      )}
    </>
  );
}

type Commit = ReleaseVersionFieldsFragment['commits'][number];

/** Commits, newest first: short hash, first line of the message, author and time. */
export function CommitList({ commits }: { commits: readonly Commit[] }) {
  return (
    <ul className="release-commit-list">
      {commits.map((c) => (
        <li key={`${c.repository}\u0000${c.id}`}>
          <span className="mono">{c.id.slice(0, 12)}</span>{' '}
          {visibleText((c.message ?? '').split('\n')[0] || '(no message)')}
          <span className="muted">
            {' '}
            · {visibleText(c.authorName ?? c.authorEmail ?? 'unknown author')}
            {c.timestamp && <> · {formatDateTime(c.timestamp)}</>}
          </span>
        </li>
      ))}
    </ul>
  );
}
