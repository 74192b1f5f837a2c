import { RelativeTime } from '../../components/time';
import { formatNumber } from '../../lib/format';
import type { IssueData } from './types';

type IssueStatsProps = { issue: Pick<IssueData, 'eventCount' | 'userCount' | 'firstSeen' | 'lastSeen'>; now: string };

export function IssueStats({ issue, now }: IssueStatsProps) {
  return (
    <dl className="stats">
      <div>
        <dt>Events</dt>
        <dd>{formatNumber(issue.eventCount)}</dd>
      </div>
      <div>
        <dt>Users affected</dt>
        <dd>{formatNumber(issue.userCount)}</dd>
      </div>
      <div>
        <dt>First seen</dt>
        <dd>
          <RelativeTime iso={issue.firstSeen} now={now} />
        </dd>
      </div>
      <div>
        <dt>Last seen</dt>
        <dd>
          <RelativeTime iso={issue.lastSeen} now={now} />
        </dd>
      </div>
    </dl>
  );
}
