import { Link, useLocation } from '@remix-run/react';
import { describeEventUser } from '../lib/event-user';
import { withParams } from '../lib/filters';
import { formatDateTime } from '../lib/format';
import { visibleText } from '../lib/visible-text';
import { ExternalLink } from './external-link';
import { StackTrace, type FrameData } from './stack-trace';

export type EventDetailData = {
  id: string;
  eventId: string;
  message: string;
  environment: string;
  release: string | null;
  url: string | null;
  timestamp: string;
  user: Record<string, unknown> | null;
  frames: FrameData[];
};

type EventDetailProps = {
  /** The picked event, or the latest one when none was picked; null when there is none to show. */
  event: EventDetailData | null;
  /** True when `?event=` was given: the heading names the event instead of "latest". */
  picked: boolean;
  showMinified: boolean;
};

/** One event: message, where and when, and its stack (original source, or minified frames). */
export function EventDetail({ event, picked, showMinified }: EventDetailProps) {
  const location = useLocation();
  const hasMinified = event?.frames.some((f) => f.minified) ?? false;
  const user = event ? describeEventUser(event.user) : null;
  return (
    <section className="card" id="event-detail" aria-labelledby="trace-heading">
      <div className="section-head">
        <h3 id="trace-heading">
          Stack trace{' '}
          {event && (
            <span className="muted">
              {picked ? (
                <>
                  (event <span className="mono">{visibleText(event.eventId)}</span>)
                </>
              ) : (
                '(latest event)'
              )}
            </span>
          )}
        </h3>
        {hasMinified && (
          // A link, not a script toggle: the view is in the URL, so it survives a reload and works without JS.
          <Link
            className="button button-small"
            to={withParams(location, { frames: showMinified ? null : 'minified' })}
            replace
            preventScrollReset
          >
            {showMinified ? 'Show original source' : 'Show minified frames'}
          </Link>
        )}
      </div>
      {event ? (
        <>
          <p className="event-message">{visibleText(event.message)}</p>
          <dl className="event-meta">
            <div>
              <dt>Environment</dt>
              <dd>{visibleText(event.environment)}</dd>
            </div>
            <div>
              <dt>Release</dt>
              <dd className="mono">{event.release ? visibleText(event.release) : '—'}</dd>
            </div>
            <div>
              <dt>When</dt>
              <dd>{formatDateTime(event.timestamp)}</dd>
            </div>
            {user && (
              <div>
                <dt>User</dt>
                <dd>{visibleText(user)}</dd>
              </div>
            )}
            {event.url && (
              <div>
                <dt>URL</dt>
                <dd>
                  <ExternalLink url={event.url} />
                </dd>
              </div>
            )}
          </dl>
          <StackTrace frames={event.frames} showMinified={showMinified} />
        </>
      ) : picked ? (
        <p className="muted">
          This event is not one of this issue&apos;s, or is no longer stored.{' '}
          <Link to={withParams(location, { event: null })}>Show the latest event</Link>
        </p>
      ) : (
        <p className="muted">No event is stored for this issue any more (retention).</p>
      )}
    </section>
  );
}
