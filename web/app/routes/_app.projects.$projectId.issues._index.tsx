import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from '@remix-run/react';
import { useCallback, useState } from 'react';
import { FormError } from '../components/field';
import { IssueTable } from '../components/issue-table';
import { KeyboardTriage } from '../components/keyboard-triage';
import { mutateApi, queryApi } from '../lib/graphql.server';
import { readString, readStrings } from '../lib/form.server';
import { issuePath, projectPath } from '../lib/paths';
import { parseSnoozeUntil, SNOOZE_DURATIONS } from '../lib/snooze';
import type { loader as projectLoader } from './_app.projects.$projectId';
import { graphql } from '../graphql';
import { REOPEN_ISSUE, SNOOZE_ISSUE } from '../features/issue/queries';

const ISSUES_PAGE_SIZE = 25;
/** resolveIssues takes at most 100 ids; a page holds 25. */
const MAX_BULK_IDS = 100;

// Discarded issues (their new events are dropped) are only listed under their own tab, whatever
// their status: the other tabs leave them out (docs/decisions/023-unmerge-snooze-discard.md).
const STATUSES = [
  { param: 'open', value: 'OPEN', label: 'Open' },
  { param: 'resolved', value: 'RESOLVED', label: 'Resolved' },
  { param: 'snoozed', value: 'SNOOZED', label: 'Snoozed' },
  { param: 'discarded', value: null, label: 'Discarded' },
] as const;

type Status = (typeof STATUSES)[number];

const SORTS = [
  { param: 'last-seen', value: 'LAST_SEEN', label: 'Last seen' },
  { param: 'first-seen', value: 'FIRST_SEEN', label: 'First seen' },
  { param: 'events', value: 'EVENTS', label: 'Events' },
  { param: 'users', value: 'USERS', label: 'Users affected' },
] as const;

/** "Assigned to me" and "unassigned" (issue 19): the API's `assigned` filter. */
const ASSIGNED = [
  { param: '', value: null, label: 'Anyone or no one' },
  { param: 'me', value: 'ME', label: 'Assigned to me' },
  { param: 'none', value: 'NONE', label: 'Unassigned' },
] as const;

/** The list's GET parameters besides status and cursor: kept across tabs and pages. */
type Filters = {
  q: string;
  environment: string;
  release: string;
  sort: (typeof SORTS)[number]['param'];
  assigned: (typeof ASSIGNED)[number]['param'];
};

const ISSUES_QUERY = graphql(`
  query ProjectIssues(
    $projectId: ID!
    $status: IssueStatus
    $discarded: Boolean
    $first: Int!
    $after: String
    $search: String
    $environment: String
    $release: String
    $sort: IssueSort!
    $assigned: IssueAssignedFilter
  ) {
    issues(
      projectId: $projectId
      status: $status
      discarded: $discarded
      first: $first
      after: $after
      search: $search
      environment: $environment
      release: $release
      sort: $sort
      assigned: $assigned
    ) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        title
        culprit
        level
        status
        isRegression
        eventCount
        userCount
        lastSeen
        assignee {
          id
          email
        }
        series(hours: 24) {
          ts
          count
        }
      }
    }
    all: issues(projectId: $projectId, first: 1) {
      totalCount
    }
    allDiscarded: issues(projectId: $projectId, first: 1, discarded: true) {
      totalCount
    }
  }
`);

const RESOLVE_ISSUES = graphql(`
  mutation ResolveIssues($ids: [ID!]!) {
    resolveIssues(ids: $ids) {
      id
    }
  }
`);

/** Free-text parameters are trimmed and bounded (the API takes at most 200 characters of search). */
function readFilters(url: URL): Filters {
  const text = (name: string, max: number) => (url.searchParams.get(name) ?? '').trim().slice(0, max);
  const sort = SORTS.find((s) => s.param === url.searchParams.get('sort'))?.param ?? 'last-seen';
  const assigned = ASSIGNED.find((a) => a.param && a.param === url.searchParams.get('assigned'))?.param ?? '';
  return {
    q: text('q', 200),
    environment: text('environment', 100),
    release: text('release', 200),
    sort,
    assigned,
  };
}

/** A list URL's query string with the given status and cursor and the current filters. */
function listQuery(filters: Filters, status: string, after?: string | null): string {
  const params = new URLSearchParams({ status });
  if (filters.q) params.set('q', filters.q);
  if (filters.environment) params.set('environment', filters.environment);
  if (filters.release) params.set('release', filters.release);
  if (filters.sort !== 'last-seen') params.set('sort', filters.sort);
  if (filters.assigned) params.set('assigned', filters.assigned);
  if (after) params.set('after', after);
  return `?${params}`;
}

/** `?status=` takes the tab name in any case; anything else shows open issues. */
function parseStatus(param: string | null): Status {
  return STATUSES.find((s) => s.param === param?.toLowerCase()) ?? STATUSES[0];
}

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const status = parseStatus(url.searchParams.get('status'));
  const after = url.searchParams.get('after') || null;
  const filters = readFilters(url);
  const result = await queryApi(args, ISSUES_QUERY, {
    projectId: args.params.projectId ?? '',
    status: status.value,
    ...(status.value === null ? { discarded: true } : {}),
    first: ISSUES_PAGE_SIZE,
    after,
    search: filters.q || null,
    environment: filters.environment || null,
    release: filters.release || null,
    sort: SORTS.find((s) => s.param === filters.sort)!.value,
    assigned: ASSIGNED.find((a) => a.param === filters.assigned)!.value,
  });
  return {
    status: status.param,
    after,
    filters,
    issues: result.issues,
    projectIssueCount: result.all.totalCount + result.allDiscarded.totalCount,
    now: new Date().toISOString(),
  };
}

/**
 * The bulk form and keyboard triage: `intent` resolve | snooze | reopen for the checked `ids`.
 * Snooze and reopen have no bulk mutation, so they go one id at a time (a page is 25 issues).
 * The API drops ids that are not the caller's, so a forged id changes nothing.
 */
export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  const ids = readStrings(form, 'ids', MAX_BULK_IDS);
  if (ids.length === 0) return data({ error: 'Select at least one issue first.', done: null }, { status: 400 });
  if (intent === 'resolve') {
    const result = await mutateApi(args, RESOLVE_ISSUES, { ids });
    if (!result.ok) return data({ error: result.error.message, done: null }, { status: 400 });
    return { error: null, done: `Resolved ${result.data.resolveIssues.length} of ${ids.length}.` };
  }
  if (intent === 'snooze' || intent === 'reopen') {
    const until = intent === 'snooze' ? parseSnoozeUntil(form) : null;
    if (intent === 'snooze' && !until)
      return data({ error: 'Choose how long to snooze for.', done: null }, { status: 400 });
    const results = await Promise.all(
      ids.map((id) => (until ? mutateApi(args, SNOOZE_ISSUE, { id, until }) : mutateApi(args, REOPEN_ISSUE, { id }))),
    );
    const failed = results.find((r) => !r.ok);
    const count = results.filter((r) => r.ok).length;
    const verb = intent === 'snooze' ? 'Snoozed' : 'Reopened';
    if (failed && !failed.ok)
      return data({ error: `${verb} ${count} of ${ids.length}: ${failed.error.message}`, done: null }, { status: 400 });
    return { error: null, done: `${verb} ${count} of ${ids.length}.` };
  }
  return data({ error: 'Unknown action.', done: null }, { status: 400 });
}

export default function IssuesPage() {
  const { status, after, filters, issues, projectIssueCount, now } = useLoaderData<typeof loader>();
  const filtered = Boolean(filters.q || filters.environment || filters.release || filters.assigned);
  const actionData = useActionData<typeof action>();
  const parent = useRouteLoaderData<typeof projectLoader>('routes/_app.projects.$projectId');
  const busy = useNavigation().state === 'submitting';
  const [activeIndex, setActiveIndex] = useState(-1);
  const projectId = parent?.project.id ?? '';
  const pathOf = useCallback((id: string) => issuePath(projectId, id), [projectId]);
  const current = parseStatus(status);
  const ids = issues.nodes.map((i) => i.id);
  return (
    <section aria-labelledby="issues-heading">
      <h2 id="issues-heading" className="visually-hidden">
        {current.label} issues
      </h2>
      <nav aria-label="Issue status" className="tabs tabs-secondary">
        {STATUSES.map((s) => (
          <Link
            key={s.param}
            to={listQuery(filters, s.param)}
            aria-current={s.param === current.param ? 'page' : undefined}
          >
            {s.label}
          </Link>
        ))}
      </nav>

      {projectIssueCount > 0 && (
        <Form method="get" className="filters" aria-label="Filter issues">
          <input type="hidden" name="status" value={current.param} />
          <label className="inline-field">
            <span>Search</span>
            <input type="search" name="q" defaultValue={filters.q} maxLength={200} placeholder="Title or message" />
          </label>
          <label className="inline-field">
            <span>Environment</span>
            <input type="text" name="environment" defaultValue={filters.environment} maxLength={100} />
          </label>
          <label className="inline-field">
            <span>Release</span>
            <input type="text" name="release" defaultValue={filters.release} maxLength={200} />
          </label>
          <label className="inline-field">
            <span>Assignee</span>
            <select name="assigned" defaultValue={filters.assigned}>
              {ASSIGNED.map((a) => (
                <option key={a.param} value={a.param}>
                  {a.label}
                </option>
              ))}
            </select>
          </label>
          <label className="inline-field">
            <span>Sort by</span>
            <select name="sort" defaultValue={filters.sort}>
              {SORTS.map((s) => (
                <option key={s.param} value={s.param}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button">
            Apply
          </button>
          {(filtered || filters.sort !== 'last-seen') && <Link to={`?status=${current.param}`}>Clear</Link>}
        </Form>
      )}

      {/* Outside the bulk form: resolving the last issues of a page removes the form itself. */}
      <FormError message={actionData?.error} />
      {actionData?.done && (
        <p className="notice" role="status">
          {actionData.done}
        </p>
      )}

      {projectIssueCount === 0 && parent ? (
        <div className="card">
          <h3>No issues yet</h3>
          <p className="muted">
            Send a first error from your application: <Link to={projectPath(parent.project.id)}>Setup</Link> has the DSN
            and the install snippets for this instance.
          </p>
        </div>
      ) : issues.nodes.length === 0 ? (
        <p className="empty">
          No {current.label.toLowerCase()} issues{filtered ? ' match these filters' : ''}.
        </p>
      ) : (
        <Form method="post" className="bulk-form" aria-label="Bulk actions">
          {current.value === null ? (
            <p className="muted toolbar-count">
              {issues.totalCount} discarded {issues.totalCount === 1 ? 'issue' : 'issues'}: their new events are dropped
              at ingest. Open one to stop discarding it.
            </p>
          ) : (
            <div className="toolbar">
              <p className="muted toolbar-count">
                {issues.totalCount} {current.label.toLowerCase()} {issues.totalCount === 1 ? 'issue' : 'issues'}
              </p>
              {current.value === 'OPEN' ? (
                <>
                  <button type="submit" name="intent" value="resolve" className="button" disabled={busy}>
                    Resolve selected
                  </button>
                  <label className="inline-field">
                    <span className="visually-hidden">Snooze for</span>
                    <select name="duration" defaultValue="24h">
                      {SNOOZE_DURATIONS.map((d) => (
                        <option key={d.value} value={d.value}>
                          {d.label}
                        </option>
                      ))}
                    </select>
                  </label>
                  <button type="submit" name="intent" value="snooze" className="button" disabled={busy}>
                    Snooze selected
                  </button>
                </>
              ) : (
                <button type="submit" name="intent" value="reopen" className="button" disabled={busy}>
                  Reopen selected
                </button>
              )}
            </div>
          )}
          <IssueTable
            caption={`${current.label} issues`}
            projectId={projectId}
            issues={issues.nodes}
            now={now}
            activeIndex={activeIndex}
          />
          <KeyboardTriage
            ids={ids}
            activeIndex={activeIndex}
            setActiveIndex={setActiveIndex}
            pathOf={pathOf}
            canTriage={current.value === 'OPEN'}
          />
        </Form>
      )}

      <div className="pager">
        {after && <Link to={listQuery(filters, current.param)}>Back to the first page</Link>}
        {issues.pageInfo.hasNextPage && issues.pageInfo.endCursor && (
          <Link rel="next" className="button" to={listQuery(filters, current.param, issues.pageInfo.endCursor)}>
            Load more
          </Link>
        )}
      </div>
    </section>
  );
}
