import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation, useParams } from '@remix-run/react';
import { ErrorMessage } from '../components/error-message';
import { ExternalLink } from '../components/external-link';
import { FormError } from '../components/field';
import { StackTrace, type FrameData } from '../components/stack-trace';
import { RelativeTime } from '../components/time';
import { readString } from '../lib/form.server';
import { formatDateTime, formatNumber } from '../lib/format';
import { mutateApi, queryApi } from '../lib/graphql.server';
import { issuePath, projectPath } from '../lib/paths';
import { parseSnoozeUntil, SNOOZE_DURATIONS } from '../lib/snooze';
import { visibleText } from '../lib/visible-text';

// TODO(issue 7): the tag breakdown, the events list and the event series go here once `Issue`
// has those fields in api/schema.graphql (being added on another branch).
const ISSUE_QUERY = /* GraphQL */ `
  query IssueDetail($id: ID!) {
    issue(id: $id) {
      id
      title
      type
      culprit
      status
      level
      isRegression
      eventCount
      userCount
      firstSeen
      lastSeen
      resolvedAt
      snoozedUntil
      resolvedInRelease {
        version
        environment
        deployedAt
      }
      releases {
        version
        environment
        firstSeen
        lastSeen
        eventCount
      }
      latestEvent {
        eventId
        message
        environment
        release
        url
        timestamp
        frames {
          filename
          function
          lineno
          colno
          inApp
          minified {
            filename
            function
            lineno
            colno
          }
          context {
            pre
            line
            post
          }
        }
      }
      feedback {
        id
        message
        email
        receivedAt
      }
    }
  }
`;

const TRANSITIONS = {
  resolve: `mutation ResolveIssue($id: ID!) { resolveIssue(id: $id) { id } }`,
  reopen: `mutation ReopenIssue($id: ID!) { reopenIssue(id: $id) { id } }`,
  snooze: `mutation SnoozeIssue($id: ID!, $until: String!) { snoozeIssue(id: $id, until: $until) { id } }`,
} as const;

type IssueDetail = {
  id: string;
  title: string;
  type: string;
  culprit: string | null;
  status: 'OPEN' | 'RESOLVED' | 'SNOOZED';
  level: string;
  isRegression: boolean;
  eventCount: number;
  userCount: number;
  firstSeen: string;
  lastSeen: string;
  resolvedAt: string | null;
  snoozedUntil: string | null;
  resolvedInRelease: { version: string; environment: string; deployedAt: string } | null;
  releases: { version: string; environment: string; firstSeen: string; lastSeen: string; eventCount: number }[];
  latestEvent: {
    eventId: string;
    message: string;
    environment: string;
    release: string | null;
    url: string | null;
    timestamp: string;
    frames: FrameData[];
  } | null;
  feedback: { id: string; message: string; email: string | null; receivedAt: string }[];
};

const NOT_FOUND = { message: 'This issue does not exist or is not yours.' };

export async function loader(args: LoaderFunctionArgs) {
  const { issue } = await queryApi<{ issue: IssueDetail | null }>(args, ISSUE_QUERY, { id: args.params.issueId });
  // Missing and another tenant's issue answer alike. TODO(issue 7): also 404 an issue of another
  // project of the same org once `Issue` exposes its projectId.
  if (!issue) throw data(NOT_FOUND, { status: 404 });
  const url = new URL(args.request.url);
  return { issue, showMinified: url.searchParams.get('frames') === 'minified', now: new Date().toISOString() };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${visibleText(data.issue.title)} · Tracker` : 'Issue · Tracker' },
];

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  const id = args.params.issueId ?? '';
  let result;
  if (intent === 'resolve' || intent === 'reopen') {
    result = await mutateApi(args, TRANSITIONS[intent], { id });
  } else if (intent === 'snooze') {
    const until = parseSnoozeUntil(form);
    if (!until) return data({ error: 'Choose a duration, or a date in the future.' }, { status: 400 });
    result = await mutateApi(args, TRANSITIONS.snooze, { id, until });
  } else {
    return data({ error: 'Unknown action.' }, { status: 400 });
  }
  if (!result.ok)
    return data({ error: result.error.message }, { status: result.error.code === 'NOT_FOUND' ? 404 : 400 });
  // Post/redirect/get: a reload does not repeat the transition.
  return redirect(issuePath(args.params.projectId ?? '', id));
}

const STATUS_LABEL = { OPEN: 'Open', RESOLVED: 'Resolved', SNOOZED: 'Snoozed' } as const;

export default function IssuePage() {
  const { issue, showMinified, now } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const { projectId = '' } = useParams();
  const event = issue.latestEvent;
  const hasMinified = event?.frames.some((f) => f.minified) ?? false;
  return (
    <article className="issue-page" aria-labelledby="issue-title">
      <p className="breadcrumb">
        <Link to={projectPath(projectId, 'issues')}>← All issues</Link>
      </p>
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
          </p>
        </div>
        <IssueActions status={issue.status} busy={busy} />
      </header>
      <FormError message={actionData?.error} />

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

      <section className="card" aria-labelledby="trace-heading">
        <div className="section-head">
          <h3 id="trace-heading">Stack trace {event && <span className="muted">(latest event)</span>}</h3>
          {hasMinified && (
            // A link, not a script toggle: the view is in the URL, so it survives a reload and works without JS.
            <Link
              className="button button-small"
              to={showMinified ? '?' : '?frames=minified'}
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
        ) : (
          <p className="muted">No event is stored for this issue any more (retention).</p>
        )}
      </section>

      <section className="card" aria-labelledby="releases-heading">
        <h3 id="releases-heading">Releases it appeared in</h3>
        {issue.releases.length === 0 ? (
          <p className="muted">Its events carried no release.</p>
        ) : (
          <table className="data-table">
            <caption className="visually-hidden">Releases this issue appeared in</caption>
            <thead>
              <tr>
                <th scope="col">Release</th>
                <th scope="col">Environment</th>
                <th scope="col" className="num">
                  Events
                </th>
                <th scope="col">First seen</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {issue.releases.map((r) => (
                <tr key={`${r.version}\u0000${r.environment}`}>
                  <th scope="row" className="mono break">
                    {visibleText(r.version)}
                  </th>
                  <td>{visibleText(r.environment)}</td>
                  <td className="num">{formatNumber(r.eventCount)}</td>
                  <td>
                    <RelativeTime iso={r.firstSeen} now={now} />
                  </td>
                  <td>
                    <RelativeTime iso={r.lastSeen} now={now} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="card" aria-labelledby="feedback-heading">
        <h3 id="feedback-heading">User feedback</h3>
        {issue.feedback.length === 0 ? (
          <p className="muted">No user has written about this error yet.</p>
        ) : (
          <ul className="feedback-list">
            {issue.feedback.map((f) => (
              <li key={f.id}>
                <p className="feedback-message">{visibleText(f.message)}</p>
                <p className="muted">
                  {f.email ? visibleText(f.email) : 'Anonymous'} · <RelativeTime iso={f.receivedAt} now={now} />
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}

function IssueActions({ status, busy }: { status: IssueDetail['status']; busy: boolean }) {
  if (status !== 'OPEN') {
    return (
      <Form method="post" className="issue-actions">
        <button type="submit" name="intent" value="reopen" className="button" disabled={busy}>
          Reopen
        </button>
      </Form>
    );
  }
  return (
    <div className="issue-actions">
      <Form method="post">
        <button type="submit" name="intent" value="resolve" className="button button-primary" disabled={busy}>
          Resolve
        </button>
      </Form>
      <Form method="post" className="snooze-form" aria-label="Snooze">
        <input type="hidden" name="intent" value="snooze" />
        {SNOOZE_DURATIONS.map((d) => (
          <button
            key={d.value}
            type="submit"
            name="duration"
            value={d.value}
            className="button button-small"
            disabled={busy}
          >
            Snooze {d.label}
          </button>
        ))}
      </Form>
      <Form method="post" className="snooze-form">
        <input type="hidden" name="intent" value="snooze" />
        <label htmlFor="snooze-until">Snooze until</label>
        <input id="snooze-until" type="date" name="until" required />
        <button type="submit" className="button button-small" disabled={busy}>
          Snooze
        </button>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorMessage />;
}
