import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from '@remix-run/react';
import { useCallback, useState } from 'react';
import { FormError } from '../components/field';
import { IssueTable } from '../components/issue-table';
import { KeyboardTriage } from '../components/keyboard-triage';
import { AutoRefresh } from '../components/auto-refresh';
import { mutateApi, tryQueryApi, createErrorResponse } from '../lib/graphql.server';
import { readString, readStrings } from '../lib/form.server';
import { issuePath, projectPath } from '../lib/paths';
import { parseSnoozeUntil } from '../lib/snooze';
import type { loader as projectLoader } from './_app.projects.$projectId';
import { REOPEN_ISSUE, SNOOZE_ISSUE } from '../features/issue/queries';
import { BulkToolbar } from '../features/issues/bulk-toolbar';
import { IssueFilters, SaveSearchForm } from '../features/issues/issue-filters';
import { SavedSearchTabs, StatusTabs } from '../features/issues/list-tabs';
import { ASSIGNED, SORTS, listQuery, parseStatus, queryNamesStatus, readFilters } from '../features/issues/list-params';
import { CREATE_SAVED_SEARCH, DELETE_SAVED_SEARCH, ISSUES_QUERY, RESOLVE_ISSUES } from '../features/issues/queries';
import { mergeSelected } from '../features/issues/merge-selected.server';

const ISSUES_PAGE_SIZE = 25;
/** resolveIssues takes at most 100 ids; a page holds 25. */
const MAX_BULK_IDS = 100;

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const status = parseStatus(url.searchParams.get('status'));
  const after = url.searchParams.get('after') || null;
  const filters = readFilters(url);
  const variables = {
    projectId: args.params.projectId ?? '',
    status: queryNamesStatus(filters.query) ? null : status.value,
    ...(status.value === null && !queryNamesStatus(filters.query) ? { discarded: true } : {}),
    first: ISSUES_PAGE_SIZE,
    after,
    search: filters.q || null,
    query: filters.query || null,
    environment: filters.environment || null,
    release: filters.release || null,
    sort: SORTS.find((s) => s.param === filters.sort)!.value,
    assigned: ASSIGNED.find((a) => a.param === filters.assigned)!.value,
  };
  let result = await tryQueryApi(args, ISSUES_QUERY, variables);
  // A search the API cannot read is the person's to fix: its message goes next to the box, and
  // the page keeps its tabs and filters (read again without the query) rather than failing whole.
  let queryError: string | null = null;
  if (!result.ok && result.error.code === 'BAD_USER_INPUT' && filters.query) {
    queryError = result.error.message.replace(/^Search: /, '');
    result = await tryQueryApi(args, ISSUES_QUERY, { ...variables, query: null, after: null });
  }
  if (!result.ok) throw createErrorResponse(result.error);
  return {
    status: status.param,
    after,
    filters,
    queryError,
    issues: queryError ? null : result.data.issues,
    projectIssueCount: result.data.all.totalCount + result.data.allDiscarded.totalCount,
    savedSearches: result.data.savedSearches,
    now: new Date().toISOString(),
  };
}

/**
 * The bulk form and keyboard triage: `intent` resolve | snooze | reopen | merge for the checked `ids`.
 * Snooze and reopen have no bulk mutation, so they go one id at a time (a page is 25 issues).
 * The API drops ids that are not the caller's, so a forged id changes nothing.
 */
export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  if (intent === 'save-search') {
    const result = await mutateApi(args, CREATE_SAVED_SEARCH, {
      projectId: args.params.projectId ?? '',
      name: readString(form, 'name'),
      query: readString(form, 'query'),
    });
    if (!result.ok)
      return data({ error: null, saveError: savedSearchMessage(result.error), done: null }, { status: 400 });
    return { error: null, saveError: null, done: `Saved. It is a tab above the list now.` };
  }
  if (intent === 'delete-saved-search') {
    const result = await mutateApi(args, DELETE_SAVED_SEARCH, { id: readString(form, 'id') });
    if (!result.ok) return data({ error: result.error.message, saveError: null, done: null }, { status: 400 });
    return { error: null, saveError: null, done: 'Deleted the saved search.' };
  }
  const ids = readStrings(form, 'ids', MAX_BULK_IDS);
  if (ids.length === 0)
    return data({ error: 'Select at least one issue first.', saveError: null, done: null }, { status: 400 });
  if (intent === 'resolve') {
    const result = await mutateApi(args, RESOLVE_ISSUES, { ids });
    if (!result.ok) return data({ error: result.error.message, saveError: null, done: null }, { status: 400 });
    return { error: null, saveError: null, done: `Resolved ${result.data.resolveIssues.length} of ${ids.length}.` };
  }
  if (intent === 'merge') return mergeSelected(args, ids);
  if (intent === 'snooze' || intent === 'reopen') {
    const until = intent === 'snooze' ? parseSnoozeUntil(form) : null;
    if (intent === 'snooze' && !until)
      return data({ error: 'Choose how long to snooze for.', saveError: null, done: null }, { status: 400 });
    const results = await Promise.all(
      ids.map((id) => (until ? mutateApi(args, SNOOZE_ISSUE, { id, until }) : mutateApi(args, REOPEN_ISSUE, { id }))),
    );
    const failed = results.find((r) => !r.ok);
    const count = results.filter((r) => r.ok).length;
    const verb = intent === 'snooze' ? 'Snoozed' : 'Reopened';
    if (failed && !failed.ok)
      return data(
        { error: `${verb} ${count} of ${ids.length}: ${failed.error.message}`, saveError: null, done: null },
        { status: 400 },
      );
    return { error: null, saveError: null, done: `${verb} ${count} of ${ids.length}.` };
  }
  return data({ error: 'Unknown action.', saveError: null, done: null }, { status: 400 });
}

/** The API's reason, in the words of the form it belongs to. */
function savedSearchMessage(error: { code: string; message: string }): string {
  if (error.code !== 'BAD_USER_INPUT') return error.message;
  if (error.message.startsWith('Search: ')) return `The search cannot be saved: ${error.message.slice(8)}`;
  const reason = error.message.replace(/^(name|query): /, '');
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

export default function IssuesPage() {
  const { status, after, filters, queryError, issues, projectIssueCount, savedSearches, now } =
    useLoaderData<typeof loader>();
  const filtered = Boolean(filters.query || filters.q || filters.environment || filters.release || filters.assigned);
  const statusFromQuery = queryNamesStatus(filters.query);
  const actionData = useActionData<typeof action>();
  const parent = useRouteLoaderData<typeof projectLoader>('routes/_app.projects.$projectId');
  const busy = useNavigation().state === 'submitting';
  const [activeIndex, setActiveIndex] = useState(-1);
  const projectId = parent?.project.id ?? '';
  const pathOf = useCallback((id: string) => issuePath(projectId, id), [projectId]);
  const current = parseStatus(status);
  const ids = issues?.nodes.map((i) => i.id) ?? [];
  const showsOpen = statusFromQuery || current.value === 'OPEN';
  const showsClosed = statusFromQuery || current.value !== 'OPEN';
  const listLabel = statusFromQuery ? 'matching' : current.label.toLowerCase();
  return (
    <section aria-labelledby="issues-heading">
      <AutoRefresh />
      <h2 id="issues-heading" className="visually-hidden">
        {current.label} issues
      </h2>
      <StatusTabs filters={filters} current={current} statusFromQuery={statusFromQuery} />
      <SavedSearchTabs filters={filters} current={current} savedSearches={savedSearches} />

      {projectIssueCount > 0 && (
        <IssueFilters filters={filters} current={current} filtered={filtered} queryError={queryError} />
      )}
      {filters.query && !queryError && <SaveSearchForm query={filters.query} error={actionData?.saveError} />}

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
      ) : !issues ? (
        <p className="empty">Fix the search above to see the issues it matches.</p>
      ) : issues.nodes.length === 0 ? (
        <p className="empty">
          No {statusFromQuery ? '' : `${listLabel} `}issues{filtered ? ' match these filters' : ''}.
        </p>
      ) : (
        <Form method="post" className="bulk-form" aria-label="Bulk actions">
          <BulkToolbar
            count={issues.totalCount}
            listLabel={listLabel}
            discardedTab={current.value === null && !statusFromQuery}
            showsOpen={showsOpen}
            showsClosed={showsClosed}
            busy={busy}
          />
          <IssueTable
            caption={statusFromQuery ? 'Matching issues' : `${current.label} issues`}
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
            canTriage={showsOpen}
          />
        </Form>
      )}

      <div className="pager">
        {after && <Link to={listQuery(filters, current.param)}>Back to the first page</Link>}
        {issues?.pageInfo.hasNextPage && issues.pageInfo.endCursor && (
          <Link rel="next" className="button" to={listQuery(filters, current.param, issues.pageInfo.endCursor)}>
            Load more
          </Link>
        )}
      </div>
    </section>
  );
}
