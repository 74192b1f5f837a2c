import { Link } from '@remix-run/react';
import { useState } from 'react';
import { issuePath } from '../lib/paths';
import { formatRelativeTime } from '../lib/relative-time';
import { visibleText } from '../lib/visible-text';

export type IssueRow = {
  id: string;
  title: string;
  culprit: string | null;
  level: 'FATAL' | 'ERROR' | 'WARNING' | 'INFO';
  status: 'OPEN' | 'RESOLVED' | 'SNOOZED';
  isRegression: boolean;
  eventCount: number;
  userCount: number;
  lastSeen: string;
  /** Who owns it (issue 19); absent when the page does not ask. */
  assignee?: { id: string; email: string } | null;
  /** Events per hour over the last 24 hours, oldest first (absent: no sparkline column). */
  series?: { ts: string; count: number }[];
};

const numberFormat = new Intl.NumberFormat('en');

type IssueTableProps = {
  caption: string;
  projectId: string;
  issues: IssueRow[];
  now: string;
  /** The row keyboard triage points at (-1: none); drawn highlighted. */
  activeIndex?: number;
};

// Titles and culprits come straight from events, i.e. from anyone holding the DSN: they are only
// ever rendered as React text children, never as HTML. The checkboxes belong to the bulk form
// around the table (name="ids"), so selection works without JavaScript too.
export function IssueTable({ caption, projectId, issues, now, activeIndex = -1 }: IssueTableProps) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const allSelected = issues.length > 0 && issues.every((i) => selected.has(i.id));
  function toggle(id: string, on: boolean) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }
  return (
    <table className="issues">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="select-cell">
            <input
              type="checkbox"
              aria-label="Select all issues on this page"
              checked={allSelected}
              onChange={(e) => setSelected(e.target.checked ? new Set(issues.map((i) => i.id)) : new Set())}
            />
          </th>
          <th scope="col">Issue</th>
          <th scope="col" className="num">
            Events
          </th>
          <th scope="col" className="num">
            Users affected
          </th>
          {issues.some((i) => i.series) && <th scope="col">Last 24 hours</th>}
          <th scope="col">Last seen</th>
        </tr>
      </thead>
      <tbody>
        {issues.map((issue, index) => (
          <tr key={issue.id} data-issue-id={issue.id} className={index === activeIndex ? 'is-active' : undefined}>
            <td className="select-cell">
              <input
                type="checkbox"
                name="ids"
                value={issue.id}
                aria-label={`Select ${visibleText(issue.title)}`}
                checked={selected.has(issue.id)}
                onChange={(e) => toggle(issue.id, e.target.checked)}
              />
            </td>
            <th scope="row" className="issue-cell">
              <span className={`level level-${issue.level.toLowerCase()}`}>{issue.level.toLowerCase()}</span>
              <Link className="issue-title" to={issuePath(projectId, issue.id)}>
                {visibleText(issue.title)}
              </Link>
              {issue.isRegression && <span className="badge">Regression</span>}
              {issue.assignee && (
                <span className="badge badge-assignee" title={`Assigned to ${visibleText(issue.assignee.email)}`}>
                  <span className="visually-hidden">Assigned to </span>
                  {visibleText(issue.assignee.email)}
                </span>
              )}
              {issue.culprit && <span className="culprit">{visibleText(issue.culprit)}</span>}
            </th>
            <td className="num">{numberFormat.format(issue.eventCount)}</td>
            <td className="num">{numberFormat.format(issue.userCount)}</td>
            {issue.series && (
              <td>
                <Sparkline points={issue.series} />
              </td>
            )}
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

const SPARK_W = 96;
const SPARK_H = 20;

/**
 * Events per hour as a small server-rendered SVG (attributes only: the CSP allows no inline
 * style). The total is the accessible name; the shape is decoration.
 */
export function Sparkline({ points }: { points: { ts: string; count: number }[] }) {
  const total = points.reduce((n, p) => n + p.count, 0);
  const max = Math.max(1, ...points.map((p) => p.count));
  const step = points.length > 1 ? SPARK_W / (points.length - 1) : SPARK_W;
  const line = points
    .map((p, i) => `${(i * step).toFixed(1)},${(SPARK_H - 1 - (p.count / max) * (SPARK_H - 2)).toFixed(1)}`)
    .join(' ');
  return (
    <svg
      className="sparkline"
      width={SPARK_W}
      height={SPARK_H}
      viewBox={`0 0 ${SPARK_W} ${SPARK_H}`}
      role="img"
      aria-label={`${numberFormat.format(total)} events in the last ${points.length} hours`}
    >
      <polyline points={line} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
