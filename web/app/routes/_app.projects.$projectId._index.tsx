import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData, useRouteLoaderData } from '@remix-run/react';
import { SetupInstructions } from '../components/setup-instructions';
import { queryApi } from '../lib/graphql.server';
import type { loader as projectLoader } from './_app.projects.$projectId';

const ISSUE_COUNT_QUERY = /* GraphQL */ `
  query ProjectIssueCount($projectId: ID!) {
    issues(projectId: $projectId, first: 1) {
      totalCount
    }
  }
`;

export async function loader(args: LoaderFunctionArgs) {
  const { issues } = await queryApi<{ issues: { totalCount: number } }>(args, ISSUE_COUNT_QUERY, {
    projectId: args.params.projectId,
  });
  return { issueCount: issues.totalCount };
}

// The project's setup page; for a project without issues yet it is the empty state.
export default function ProjectSetupPage() {
  const { issueCount } = useLoaderData<typeof loader>();
  const parent = useRouteLoaderData<typeof projectLoader>('routes/_app.projects.$projectId');
  if (!parent) return null;
  const { project } = parent;
  return (
    <section className="card" aria-labelledby="setup-heading">
      {issueCount === 0 ? (
        <>
          <h2 id="setup-heading">Waiting for the first event</h2>
          <p className="muted">
            Install an SDK, initialise it with this project's DSN, and errors will appear under Issues.
          </p>
        </>
      ) : (
        <>
          <h2 id="setup-heading">Setup</h2>
          <p className="muted">
            This project has {issueCount} {issueCount === 1 ? 'issue' : 'issues'}.{' '}
            <Link to={`/projects/${encodeURIComponent(project.id)}/issues`}>View issues</Link>
          </p>
        </>
      )}
      <SetupInstructions dsn={project.dsn} />
    </section>
  );
}
