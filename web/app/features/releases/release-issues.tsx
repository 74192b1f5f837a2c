import { Link } from '@remix-run/react';
import { RelativeTime } from '../../components/time';
import type { ReleaseIssueFieldsFragment } from '../../graphql/graphql';
import { formatNumber } from '../../lib/format';
import { issuePath } from '../../lib/paths';
import { visibleText } from '../../lib/visible-text';

const STATUS_WORDS = { OPEN: 'open', RESOLVED: 'resolved', SNOOZED: 'snoozed' } as const;

type Props = {
  id: string;
  title: string;
  /** What the list means, under its heading. */
  hint: string;
  /** The column for `at`: "First seen", "Regressed", "Resolved". */
  atLabel: string;
  list: ReleaseIssueFieldsFragment;
  projectId: string;
  now: string;
};

/**
 * One of the release's issue lists (new, regressed, resolved in it). Titles come from events,
 * i.e. from anyone with the DSN: rendered as text only.
 */
export function ReleaseIssuesSection({ id, title, hint, atLabel, list, projectId, now }: Props) {
  const shown = list.nodes.length;
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>
        {title} <span className="muted">({formatNumber(list.totalCount)})</span>
      </h2>
      <p className="hint">{hint}</p>
      {shown === 0 ? (
        <p className="empty">None.</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={title}>
          <table className="data-table release-issues">
            <caption className="visually-hidden">
              {title}
              {shown < list.totalCount && `: the newest ${shown} of ${list.totalCount}`}
            </caption>
            <thead>
              <tr>
                <th scope="col">Issue</th>
                <th scope="col">Status</th>
                <th scope="col">Environments</th>
                <th scope="col">{atLabel}</th>
                <th scope="col" className="num">
                  Events
                </th>
              </tr>
            </thead>
            <tbody>
              {list.nodes.map(({ issue, environments, at }) => (
                <tr key={issue.id}>
                  <th scope="row" className="issue-cell">
                    <span className={`level level-${issue.level.toLowerCase()}`}>{issue.level.toLowerCase()}</span>
                    <Link className="issue-title" to={issuePath(projectId, issue.id)}>
                      {visibleText(issue.title)}
                    </Link>
                    {issue.culprit && <span className="culprit">{visibleText(issue.culprit)}</span>}
                  </th>
                  <td>{STATUS_WORDS[issue.status]}</td>
                  <td className="break">{environments.map(visibleText).join(', ')}</td>
                  <td>
                    <RelativeTime iso={at} now={now} />
                  </td>
                  <td className="num">{formatNumber(issue.eventCount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown < list.totalCount && (
        <p className="hint">
          The newest {formatNumber(shown)} of {formatNumber(list.totalCount)}.
        </p>
      )}
    </section>
  );
}
