import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useNavigation, useParams } from '@remix-run/react';
import { ErrorMessage } from '../components/error-message';
import type { SnoozeIssueMutationVariables } from '../graphql/graphql';
import { EventDetail } from '../components/event-detail';
import { ChartRangeLinks, EventsChart } from '../components/events-chart';
import { FormError } from '../components/field';
import { IssueEvents } from '../components/issue-events';
import { TagBreakdown } from '../components/tag-breakdown';
import { AutoRefresh } from '../components/auto-refresh';
import { IssueFeedback } from '../features/issue/issue-feedback';
import { IssueHeader } from '../features/issue/issue-header';
import { IssueReleases } from '../features/issue/issue-releases';
import { SuspectCommits } from '../features/issue/suspect-commits';
import { IssueStats } from '../features/issue/issue-stats';
import { IssueActivity } from '../features/issue/issue-activity';
import { IssueAssignee } from '../features/issue/issue-assignee';
import {
  ADD_COMMENT,
  ASSIGN_ISSUE,
  DELETE_COMMENT,
  DISCARD_ISSUE,
  ISSUE_QUERY,
  REOPEN_ISSUE,
  RESOLVE_ISSUE,
  SNOOZE_ISSUE,
  UNMERGE_ISSUE,
  UPDATE_COMMENT,
} from '../features/issue/queries';
import { readChartRange } from '../lib/chart-range';
import { withParams } from '../lib/filters';
import { readString } from '../lib/form.server';
import { formatNumber } from '../lib/format';
import { mutateApi, queryApi } from '../lib/graphql.server';
import { issuePath, projectPath } from '../lib/paths';
import { parseSnoozeRequest } from '../lib/snooze';
import { visibleText } from '../lib/visible-text';

const EVENTS_PAGE_SIZE = 25;
/** The timeline's newest entries shown on the page. */
const ACTIVITY_ENTRIES = 100;

const NOT_FOUND = { message: 'This issue does not exist or is not yours.' };

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const after = url.searchParams.get('after') || null;
  const pickedId = url.searchParams.get('event') || null;
  const range = readChartRange(url.searchParams.get('range'));
  const { issue, project } = await queryApi(args, ISSUE_QUERY, {
    id: args.params.issueId ?? '',
    eventsFirst: EVENTS_PAGE_SIZE,
    eventsAfter: after,
    range: range.api,
    eventId: pickedId ?? '',
    picked: pickedId !== null,
    activityFirst: ACTIVITY_ENTRIES,
    projectId: args.params.projectId ?? '',
  });
  const members = project?.members ?? [];
  // Missing, another tenant's, and another project's (same organization, wrong URL) all answer
  // alike: the URL's project is what the breadcrumb, the tabs and the actions' redirects use.
  // Ids compare without case: the API accepts a hand-typed uppercase UUID as the same project.
  if (!issue || issue.projectId.toLowerCase() !== (args.params.projectId ?? '').toLowerCase()) {
    throw data(NOT_FOUND, { status: 404 });
  }
  // `Issue.event(id)` answers only this issue's events; the check stays as a guard.
  const picked = pickedId !== null;
  const event = issue.event ?? null;
  const shown = picked ? (event && event.issueId === issue.id ? event : null) : (issue.latestEvent ?? null);
  // A link from before events were named by UUID (`?event=7`) moves to the event's own address.
  if (shown && pickedId !== null && pickedId !== shown.id) throw redirect(withParams(url, { event: shown.id }));
  const { latestEvent: _latest, event: _picked, events, ...rest } = issue;
  return {
    issue: rest,
    members,
    traceUrlTemplate: project?.traceUrlTemplate ?? null,
    events: events.nodes,
    event: shown,
    picked,
    olderPath:
      events.pageInfo.hasNextPage && events.pageInfo.endCursor
        ? `${withParams(url, { after: events.pageInfo.endCursor })}#events`
        : null,
    newestPath: after ? `${withParams(url, { after: null })}#events` : null,
    showMinified: url.searchParams.get('frames') === 'minified',
    range: range.param,
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
  } else if (intent === 'assign') {
    const userId = readString(form, 'userId');
    result = await mutateApi(args, ASSIGN_ISSUE, { id, userId: userId || null });
  } else if (intent === 'comment') {
    result = await mutateApi(args, ADD_COMMENT, { issueId: id, body: readBody(form) });
  } else if (intent === 'edit-comment') {
    result = await mutateApi(args, UPDATE_COMMENT, { id: readString(form, 'commentId'), body: readBody(form) });
  } else if (intent === 'delete-comment') {
    result = await mutateApi(args, DELETE_COMMENT, { id: readString(form, 'commentId') });
  } else if (intent === 'snooze') {
    const request = parseSnoozeRequest(form);
    if ('error' in request) return data({ error: request.error }, { status: 400 });
    const variables: SnoozeIssueMutationVariables = { id, ...request };
    result = await mutateApi(args, SNOOZE_ISSUE, variables);
  } else if (intent === 'unmerge') {
    result = await mutateApi(args, UNMERGE_ISSUE, { id });
  } else if (intent === 'discard' || intent === 'keep') {
    result = await mutateApi(args, DISCARD_ISSUE, { id, discard: intent === 'discard' });
  } else {
    return data({ error: 'Unknown action.' }, { status: 400 });
  }
  if (!result.ok)
    return data({ error: result.error.message }, { status: result.error.code === 'NOT_FOUND' ? 404 : 400 });
  // Post/redirect/get: a reload does not repeat the transition.
  const anchor = intent === 'comment' || intent.endsWith('-comment') ? '#activity' : '';
  return redirect(`${issuePath(args.params.projectId ?? '', id)}${anchor}`);
}

/** A comment as typed (its line breaks kept); the API trims it and checks its length. */
function readBody(form: FormData): string {
  const value = form.get('body');
  return typeof value === 'string' ? value : '';
}

export default function IssuePage() {
  const { issue, members, traceUrlTemplate, events, event, picked, olderPath, newestPath, showMinified, range, now } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const { projectId = '' } = useParams();
  return (
    <article className="issue-page" aria-labelledby="issue-title">
      <AutoRefresh />
      <p className="breadcrumb">
        <Link to={projectPath(projectId, 'issues')}>← All issues</Link>
      </p>
      <IssueHeader issue={issue} busy={busy} now={now} />
      <IssueAssignee assignee={issue.assignee} members={members} busy={busy} />
      <FormError message={actionData?.error} />

      <IssueStats issue={issue} now={now} />

      <div className="issue-overview">
        <section className="card" aria-labelledby="series-heading">
          <div className="card-heading">
            <h3 id="series-heading">Events</h3>
            <ChartRangeLinks current={readChartRange(range)} />
          </div>
          <EventsChart points={issue.series} range={readChartRange(range)} />
        </section>
        <section className="card" aria-labelledby="tags-heading">
          <h3 id="tags-heading">Tags</h3>
          <TagBreakdown tags={issue.tags} />
        </section>
      </div>

      <EventDetail event={event} picked={picked} showMinified={showMinified} traceUrlTemplate={traceUrlTemplate} />

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

      <IssueActivity activity={issue.activity} now={now} busy={busy} />

      <SuspectCommits suspects={issue.suspectCommits} now={now} />
      <IssueReleases releases={issue.releases} now={now} />
      <IssueFeedback feedback={issue.feedback} now={now} />
    </article>
  );
}

export function ErrorBoundary() {
  return <ErrorMessage />;
}
