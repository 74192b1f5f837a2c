import { RelativeTime } from '../../components/time';
import { visibleText } from '../../lib/visible-text';
import type { IssueData } from './types';

/** A commit hash as people quote it: its first 12 characters. */
function shortId(id: string): string {
  return /^[0-9a-f]{40,64}$/i.test(id) ? id.slice(0, 12) : id;
}

/**
 * Suspect commits: commits of the issue's first release that changed a file its in-app frames
 * name, newest first. Shown only when there are some (they need `sentry-cli releases set-commits`).
 */
export function SuspectCommits({ suspects, now }: { suspects: IssueData['suspectCommits']; now: string }) {
  if (suspects.length === 0) return null;
  return (
    <section className="card" aria-labelledby="suspect-commits-heading">
      <h3 id="suspect-commits-heading">Suspect commits</h3>
      <p className="muted">
        Commits of release <span className="mono break">{visibleText(suspects[0].release)}</span>, where this issue
        first appeared, that changed a file in its stack trace.
      </p>
      <ul className="suspect-commits">
        {suspects.map((s) => (
          <li key={`${s.commit.repository}\u0000${s.commit.id}`}>
            <p>
              <strong>{visibleText(firstLine(s.commit.message) ?? '(no message)')}</strong>
            </p>
            <p className="muted">
              <span className="mono">{shortId(s.commit.id)}</span>
              {s.commit.repository ? <> in {visibleText(s.commit.repository)}</> : null}
              {' · '}
              {visibleText(s.commit.authorName ?? s.commit.authorEmail ?? 'unknown author')}
              {s.commit.timestamp ? (
                <>
                  {' · '}
                  <RelativeTime iso={s.commit.timestamp} now={now} />
                </>
              ) : null}
            </p>
            <p className="mono break">{s.files.map((f) => visibleText(f)).join(', ')}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function firstLine(message: string | null): string | null {
  if (message === null) return null;
  const line = message.split('\n')[0].trim();
  return line === '' ? null : line;
}
