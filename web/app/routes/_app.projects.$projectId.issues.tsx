import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData, useRouteLoaderData } from '@remix-run/react';
import { IssueTable, type IssueRow } from '../components/issue-table';
import { SetupInstructions } from '../components/setup-instructions';
import { queryApi } from '../lib/graphql.server';
import type { loader as projectLoader } from './_app.projects.$projectId';

const ISSUES_PAGE_SIZE = 25;

const STATUSES = [
  { param: 'open', value: 'OPEN', label: 'Open' },
  { param: 'resolved', value: 'RESOLVED', label: 'Resolved' },
  { param: 'snoozed', value: 'SNOOZED', label: 'Snoozed' },
] as const;

type Status = (typeof STATUSES)[number];

const ISSUES_QUERY = /* GraphQL */ `
  query ProjectIssues($projectId: ID!, $status: IssueStatus!, $first: Int!, $after: String) {
    issues(projectId: $projectId, status: $status, first: $first, after: $after) {
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
        isRegression
        eventCount
        userCount
        lastSeen
      }
    }
    all: issues(projectId: $projectId, first: 1) {
      totalCount
    }
  }
`;

type IssuesData = {
  issues: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: IssueRow[] };
  all: { totalCount: number };
};

/** `?status=` takes the tab name in any case; anything else shows open issues. */
function parseStatus(param: string | null): Status {
  return STATUSES.find((s) => s.param === param?.toLowerCase()) ?? STATUSES[0];
}

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const status = parseStatus(url.searchParams.get('status'));
  const after = url.searchParams.get('after') || null;
  const result = await queryApi<IssuesData>(args, ISSUES_QUERY, {
    projectId: args.params.projectId,
    status: status.value,
    first: ISSUES_PAGE_SIZE,
    after,
  });
  return {
    status: status.param,
    after,
    issues: result.issues,
    projectIssueCount: result.all.totalCount,
    now: new Date().toISOString(),
  };
}

export default function IssuesPage() {
  const { status, after, issues, projectIssueCount, now } = useLoaderData<typeof loader>();
  const parent = useRouteLoaderData<typeof projectLoader>('routes/_app.projects.$projectId');
  const current = parseStatus(status);
  return (
    <section aria-labelledby="issues-heading">
      <h2 id="issues-heading" className="visually-hidden">
        {current.label} issues
      </h2>
      <nav aria-label="Issue status" className="tabs tabs-secondary">
        {STATUSES.map((s) => (
          <Link key={s.param} to={`?status=${s.param}`} aria-current={s.param === current.param ? 'page' : undefined}>
            {s.label}
          </Link>
        ))}
      </nav>

      {projectIssueCount === 0 && parent ? (
        <div className="card">
          <h3>No issues yet</h3>
          <p className="muted">Send a first error from your application with one of these snippets.</p>
          <SetupInstructions dsn={parent.project.dsn} />
        </div>
      ) : issues.nodes.length === 0 ? (
        <p className="empty">No {current.label.toLowerCase()} issues.</p>
      ) : (
        <>
          <p className="muted">
            {issues.totalCount} {current.label.toLowerCase()} {issues.totalCount === 1 ? 'issue' : 'issues'}
          </p>
          <IssueTable caption={`${current.label} issues`} issues={issues.nodes} now={now} />
        </>
      )}

      <div className="pager">
        {after && <Link to={`?status=${current.param}`}>Back to the newest</Link>}
        {issues.pageInfo.hasNextPage && issues.pageInfo.endCursor && (
          <Link
            rel="next"
            className="button"
            to={`?${new URLSearchParams({ status: current.param, after: issues.pageInfo.endCursor })}`}
          >
            Load more
          </Link>
        )}
      </div>
    </section>
  );
}
