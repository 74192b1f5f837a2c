import { Link, useLocation } from '@remix-run/react';
import { describeEventUser } from '../lib/event-user';
import { withParams } from '../lib/filters';
import { visibleText } from '../lib/visible-text';
import { CursorPager } from './cursor-pager';
import { RelativeTime } from './time';

export type EventRow = {
  /** Tracker's id, for `event(id)` and `?event=`; not the SDK's eventId. */
  id: string;
  eventId: string;
  message: string;
  environment: string;
  release: string | null;
  timestamp: string;
  user: Record<string, unknown> | null;
};

type IssueEventsProps = {
  events: EventRow[];
  /** The event whose stack the page shows (none picked: the latest). */
  selectedId: string | null;
  newestPath: string | null;
  olderPath: string | null;
  now: string;
};

/**
 * One page of the issue's events, newest first. Picking one is a link (`?event=<id>`, the list's
 * page kept), so it works without JavaScript and survives a reload; it jumps to the event's stack.
 */
export function IssueEvents({ events, selectedId, newestPath, olderPath, now }: IssueEventsProps) {
  const location = useLocation();
  if (events.length === 0) {
    return (
      <>
        <p className="muted">{newestPath ? 'No older events.' : 'No event is stored for this issue any more.'}</p>
        <CursorPager newestPath={newestPath} olderPath={olderPath} />
      </>
    );
  }
  return (
    <>
      <div className="table-scroll" tabIndex={0}>
        <table className="data-table event-list">
          <caption className="visually-hidden">Events of this issue, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">When</th>
              <th scope="col">Release</th>
              <th scope="col">Environment</th>
              <th scope="col">User</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => {
              const selected = e.id === selectedId;
              const user = describeEventUser(e.user);
              return (
                <tr key={e.id} className={selected ? 'is-selected' : undefined}>
                  <th scope="row" className="nowrap">
                    <Link
                      className="mono event-link"
                      to={`${withParams(location, { event: e.id })}#event-detail`}
                      aria-current={selected ? 'true' : undefined}
                    >
                      {visibleText(e.eventId)}
                    </Link>
                  </th>
                  <td className="nowrap">
                    <RelativeTime iso={e.timestamp} now={now} />
                  </td>
                  <td className="mono">{e.release ? visibleText(e.release) : '—'}</td>
                  <td>{visibleText(e.environment)}</td>
                  <td>{user ? visibleText(user) : <span className="muted">—</span>}</td>
                  <td>
                    <span className="event-list-message">{visibleText(e.message)}</span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <CursorPager newestPath={newestPath} olderPath={olderPath} />
    </>
  );
}
