import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation, useParams } from '@remix-run/react';
import { ErrorMessage } from '../components/error-message';
import { EventDetail } from '../components/event-detail';
import { EventsChart } from '../components/events-chart';
import { FormError } from '../components/field';
import { IssueEvents } from '../components/issue-events';
import { TagBreakdown } from '../components/tag-breakdown';
import { RelativeTime } from '../components/time';
import { withParams } from '../lib/filters';
import { readString } from '../lib/form.server';
import { formatDateTime, formatNumber } from '../lib/format';
import type { IssueStatus } from '../graphql/graphql';
import { REOPEN_ISSUE, RESOLVE_ISSUE, ISSUE_QUERY, SNOOZE_ISSUE } from '../features/issue/queries';
import { mutateApi, queryApi } from '../lib/graphql.server';
import { issuePath, projectPath } from '../lib/paths';
import { parseSnoozeUntil, SNOOZE_DURATIONS } from '../lib/snooze';
import { visibleText } from '../lib/visible-text';

const EVENTS_PAGE_SIZE = 25;
const SERIES_HOURS = 24;

const NOT_FOUND = { message: 'This issue does not exist or is not yours.' };

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const after = url.searchParams.get('after') || null;
  const pickedId = url.searchParams.get('event') || null;
  const { issue, event } = await queryApi(args, ISSUE_QUERY, {
    id: args.params.issueId ?? '',
    eventsFirst: EVENTS_PAGE_SIZE,
    eventsAfter: after,
    hours: SERIES_HOURS,
    eventId: pickedId ?? '',
    picked: pickedId !== null,
  });
  // Missing, another tenant's, and another project's (same organization, wrong URL) all answer
  // alike: the URL's project is what the breadcrumb, the tabs and the actions' redirects use.
  // Ids compare without case: the API accepts a hand-typed uppercase UUID as the same project.
  if (!issue || issue.projectId.toLowerCase() !== (args.params.projectId ?? '').toLowerCase()) {
    throw data(NOT_FOUND, { status: 404 });
  }
  // `event(id)` answers for any event of the organization: only one of this issue is shown here.
  const picked = pickedId !== null;
  const shown = picked ? (event && event.issueId === issue.id ? event : null) : (issue.latestEvent ?? null);
  const { latestEvent: _latest, events, ...rest } = issue;
  return {
    issue: rest,
    events: events.nodes,
    event: shown,
    picked,
    olderPath:
      events.pageInfo.hasNextPage && events.pageInfo.endCursor
        ? `${withParams(url, { after: events.pageInfo.endCursor })}#events`
        : null,
    newestPath: after ? `${withParams(url, { after: null })}#events` : null,
    showMinified: url.searchParams.get('frames') === 'minified',
    now: new Date().toISOString(),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${visibleText(data.issue.title)} · Tracker` : 'Issue · Tracker' },
];

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  const id = args.params.issueId ?? '';
  let result;
  if (intent === 'resolve') {
    result = await mutateApi(args, RESOLVE_ISSUE, { id });
  } else if (intent === 'reopen') {
    result = await mutateApi(args, REOPEN_ISSUE, { id });
  } else if (intent === 'snooze') {
    const until = parseSnoozeUntil(form);
    if (!until) return data({ error: 'Choose a duration, or a date in the future.' }, { status: 400 });
    result = await mutateApi(args, SNOOZE_ISSUE, { id, until });
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
  const { issue, events, event, picked, olderPath, newestPath, showMinified, now } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const { projectId = '' } = useParams();
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

      <div className="issue-overview">
        <section className="card" aria-labelledby="series-heading">
          <h3 id="series-heading">Events per hour</h3>
          <EventsChart points={issue.series} />
        </section>
        <section className="card" aria-labelledby="tags-heading">
          <h3 id="tags-heading">Tags</h3>
          <TagBreakdown tags={issue.tags} />
        </section>
      </div>

      <EventDetail event={event} picked={picked} showMinified={showMinified} />

      <section className="card" id="events" aria-labelledby="events-heading">
        <h3 id="events-heading">
          Events <span className="muted">({formatNumber(issue.eventCount)})</span>
        </h3>
        <IssueEvents
          events={events}
          selectedId={event?.id ?? null}
          newestPath={newestPath}
          olderPath={olderPath}
          now={now}
        />
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

function IssueActions({ status, busy }: { status: IssueStatus; busy: boolean }) {
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
