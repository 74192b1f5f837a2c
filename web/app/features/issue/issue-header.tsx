import { Link } from '@remix-run/react';
import { formatDateTime } from '../../lib/format';
import { projectPath } from '../../lib/paths';
import { describeSnooze } from '../../lib/snooze';
import { visibleText } from '../../lib/visible-text';
import { IssueActions } from './issue-actions';
import type { IssueData } from './types';

const STATUS_LABEL = { OPEN: 'Open', RESOLVED: 'Resolved', SNOOZED: 'Snoozed' } as const;

type IssueHeaderProps = {
  issue: Pick<
    IssueData,
    | 'title'
    | 'culprit'
    | 'level'
    | 'status'
    | 'isRegression'
    | 'resolvedInRelease'
    | 'resolvedAt'
    | 'snoozedUntil'
    | 'snooze'
    | 'discarded'
    | 'mergedIssueCount'
    | 'id'
    | 'projectId'
    | 'alertsMutedUntil'
  >;
  busy: boolean;
  /** The loader's time (ISO 8601): whether an alert mute is still running. */
  now: string;
};

/** Title, culprit, where the issue stands (status, regression, resolved in, snoozed until) and its actions. */
export function IssueHeader({ issue, busy, now }: IssueHeaderProps) {
  const alertsMuted = issue.alertsMutedUntil !== null && Date.parse(issue.alertsMutedUntil) > Date.parse(now);
  // The confirmation page the alert messages link to (docs/alerts.md): it mutes or unmutes.
  const mutePath = `${projectPath(issue.projectId, 'alerts/mute')}?issue=${encodeURIComponent(issue.id)}`;
  return (
    <header className="issue-header">
      <div>
        <h2 id="issue-title" className="issue-page-title">
          <span className={`level level-${issue.level.toLowerCase()}`}>{issue.level.toLowerCase()}</span>
          {visibleText(issue.title)}
        </h2>
        {issue.culprit && <p className="culprit">{visibleText(issue.culprit)}</p>}
        <p className="status-line">
          <span className={`status status-${issue.status.toLowerCase()}`}>{STATUS_LABEL[issue.status]}</span>
          {issue.isRegression && <span className="badge">Regression</span>}
          {issue.status === 'RESOLVED' && (
            <span className="muted">
              {issue.resolvedInRelease ? (
                <>
                  Resolved in <span className="mono">{visibleText(issue.resolvedInRelease.version)}</span> (
                  {visibleText(issue.resolvedInRelease.environment)})
                </>
              ) : (
                'Resolved (the project had no release then)'
              )}
              {issue.resolvedAt && <> · {formatDateTime(issue.resolvedAt)}</>}
            </span>
          )}
          {issue.status === 'SNOOZED' && issue.snoozedUntil && (
            <span className="muted">Snoozed until {formatDateTime(issue.snoozedUntil)}</span>
          )}
          {issue.status === 'SNOOZED' && describeSnooze(issue.snooze) && (
            <span className="muted">Snoozed {describeSnooze(issue.snooze)}</span>
          )}
          {issue.discarded && (
            <span className="badge badge-discarded">Discarded: new events are dropped at ingest</span>
          )}
          {issue.mergedIssueCount > 0 && <span className="muted">Merged from {issue.mergedIssueCount + 1} issues</span>}
          {alertsMuted && <span className="muted">Alerts muted until {formatDateTime(issue.alertsMutedUntil!)}</span>}
          <Link to={mutePath} className="muted">
            {alertsMuted ? 'Change or end the alert mute' : 'Mute its alerts'}
          </Link>
        </p>
      </div>
      <IssueActions
        status={issue.status}
        busy={busy}
        mergedIssueCount={issue.mergedIssueCount}
        discarded={issue.discarded}
      />
    </header>
  );
}
