import { formatRelativeTime } from '../lib/relative-time';

export type IssueRow = {
  id: string;
  title: string;
  culprit: string | null;
  level: 'FATAL' | 'ERROR' | 'WARNING' | 'INFO';
  isRegression: boolean;
  eventCount: number;
  userCount: number;
  lastSeen: string;
};

const numberFormat = new Intl.NumberFormat('en');

// Titles and culprits come straight from events, i.e. from anyone holding the DSN: they are only
// ever rendered as React text children, never as HTML.
export function IssueTable({ caption, issues, now }: { caption: string; issues: IssueRow[]; now: string }) {
  return (
    <table className="issues">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Issue</th>
          <th scope="col" className="num">
            Events
          </th>
          <th scope="col" className="num">
            Users affected
          </th>
          <th scope="col">Last seen</th>
        </tr>
      </thead>
      <tbody>
        {issues.map((issue) => (
          <tr key={issue.id}>
            <th scope="row" className="issue-cell">
              <span className={`level level-${issue.level.toLowerCase()}`}>{issue.level.toLowerCase()}</span>
              <span className="issue-title">{issue.title}</span>
              {issue.isRegression && <span className="badge">Regression</span>}
              {issue.culprit && <span className="culprit">{issue.culprit}</span>}
            </th>
            <td className="num">{numberFormat.format(issue.eventCount)}</td>
            <td className="num">{numberFormat.format(issue.userCount)}</td>
            <td>
              <time dateTime={issue.lastSeen} title={issue.lastSeen}>
                {formatRelativeTime(issue.lastSeen, now)}
              </time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
