import { Link, useLocation } from '@remix-run/react';
import { describeEventUser } from '../lib/event-user';
import { withParams } from '../lib/filters';
import { formatDateTime } from '../lib/format';
import { visibleText } from '../lib/visible-text';
import { ExternalLink } from './external-link';
import { JsonTree } from './json-tree';
import type { EventDetailFieldsFragment } from '../graphql/graphql';
import { MissingSourceMaps } from '../features/issue/missing-source-maps';
import { EventBreadcrumbs } from '../features/issue/event-breadcrumbs';
import { EventExceptions } from '../features/issue/event-exceptions';
import { EventNavigation } from '../features/issue/event-navigation';
import { EventComponentStack, EventRequest } from '../features/issue/event-request';
import { EventTrace } from '../features/issue/event-trace';

/**
 * What `...EventDetailFields` selects (app/features/issue/queries.ts). The event's tags are sorted
 * by key: its own and those the worker derived (browser, os, runtime…); `handled` is false for
 * uncaught errors and null when the SDK did not say.
 */
export type EventDetailData = EventDetailFieldsFragment;

function describeHandled(handled: boolean | null): string {
  if (handled === null) return 'not reported';
  return handled ? 'yes' : 'no (uncaught)';
}

type EventDetailProps = {
  /** The picked event, or the latest one when none was picked; null when there is none to show. */
  event: EventDetailData | null;
  /** True when `?event=` was given: the heading names the event instead of "latest". */
  picked: boolean;
  showMinified: boolean;
  /** The project's trace viewer URL template (`{traceId}`), or null: the trace id is shown either way. */
  traceUrlTemplate?: string | null;
};

/**
 * One event: links to the issue's other events and to its raw JSON, message, where and when,
 * its breadcrumbs, its stack and those of its causes (original source, or minified frames), the
 * request and React component stack, and everything else the SDK sent (level, handled, SDK,
 * fingerprint, tags, every user key, the context as a tree). All of it is event text: React
 * text only, bidi controls made visible.
 */
export function EventDetail({ event, picked, showMinified, traceUrlTemplate = null }: EventDetailProps) {
  const location = useLocation();
  const hasMinified = event?.exceptions.some((x) => x.frames.some((f) => f.minified)) ?? false;
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
          <EventNavigation eventId={event.id} navigation={event.navigation} />
          {event.logMessage && (
            // Logged with the exception (Python's logging.exception): what the application said, then what was thrown.
            <p className="event-log-message">
              <span className="event-log-label">Log message</span> {visibleText(event.logMessage)}
            </p>
          )}
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
            <div>
              <dt>Level</dt>
              <dd>
                <span className={`level level-${event.level.toLowerCase()}`}>{event.level.toLowerCase()}</span>
              </dd>
            </div>
            <div>
              <dt>Handled</dt>
              <dd>{describeHandled(event.handled)}</dd>
            </div>
            <div>
              <dt>Type</dt>
              <dd className="mono">{visibleText(event.type)}</dd>
            </div>
            {event.sdk && (
              <div>
                <dt>SDK</dt>
                <dd className="mono">{visibleText(`${event.sdk.name} ${event.sdk.version}`)}</dd>
              </div>
            )}
            {event.fingerprint && (
              <div>
                <dt>Fingerprint</dt>
                <dd className="mono">{visibleText(JSON.stringify(event.fingerprint))}</dd>
              </div>
            )}
            {user && (
              <div>
                <dt>User</dt>
                <dd>{visibleText(user)}</dd>
              </div>
            )}
            <EventTrace context={event.context} template={traceUrlTemplate} />
            {event.url && (
              <div className="fact-wide">
                <dt>URL</dt>
                <dd>
                  <ExternalLink url={event.url} />
                </dd>
              </div>
            )}
          </dl>
          <EventBreadcrumbs breadcrumbs={event.breadcrumbs} errorAt={event.timestamp} />
          <MissingSourceMaps context={event.context} />
          <EventExceptions exceptions={event.exceptions} showMinified={showMinified} />
          <EventRequest request={event.request} />
          <EventComponentStack componentStack={event.componentStack} />
          <EventData event={event} />
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

/** Tags, user and context of one event, each only when the event has some. */
function EventData({ event }: { event: EventDetailData }) {
  const hasUser = event.user !== null && Object.keys(event.user).length > 0;
  const hasContext = event.context !== null && Object.keys(event.context).length > 0;
  return (
    <div className="event-data">
      <h4 id="event-tags-heading">Tags</h4>
      {event.tags.length > 0 ? (
        <dl className="event-tags" aria-labelledby="event-tags-heading">
          {event.tags.map((t) => (
            <div key={t.key}>
              <dt className="mono">{visibleText(t.key)}</dt>
              <dd className="mono">{visibleText(t.value)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">No tags.</p>
      )}
      <h4 id="event-user-heading">User</h4>
      {hasUser ? <JsonTree value={event.user} label="User" /> : <p className="muted">No user.</p>}
      <h4 id="event-context-heading">Context</h4>
      {hasContext ? <JsonTree value={event.context} label="Context" /> : <p className="muted">No context.</p>}
    </div>
  );
}
