import { data, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData, useRouteLoaderData } from '@remix-run/react';
import { SetupInstructions, type ReleasePlan } from '../components/setup-instructions';
import { queryApi } from '../lib/graphql.server';
import { projectPath } from '../lib/paths';
import { findPlan } from '../lib/plans';
import type { loader as projectLoader } from './_app.projects.$projectId';
import { graphql } from '../graphql';

// The organization's plan decides whether the page offers release registration (the API would
// answer PLAN_REQUIRED to it on Free): the catalogue is the API's, as on Releases.
const PROJECT_SETUP_QUERY = graphql(`
  query ProjectSetup($projectId: ID!) {
    project(id: $projectId) {
      id
      organizationId
    }
    viewer {
      id
      organizations {
        id
        plan
      }
    }
    plans {
      id
      name
      releaseHealth
    }
    issues(projectId: $projectId, first: 1) {
      totalCount
    }
  }
`);

export async function loader(args: LoaderFunctionArgs) {
  const projectId = args.params.projectId ?? '';
  const result = await queryApi(args, PROJECT_SETUP_QUERY, { projectId });
  if (!result.project) throw data({ message: 'This project does not exist or is not yours.' }, { status: 404 });
  const organization = result.viewer?.organizations.find((o) => o.id === result.project?.organizationId);
  const plan = organization ? findPlan(result.plans, organization.plan) : undefined;
  const releases: ReleasePlan = plan?.releaseHealth
    ? { allowed: true }
    : {
        allowed: false,
        // The first plan of the catalogue (cheapest first) that has it: "needs Pro".
        plans: result.plans.find((p) => p.releaseHealth)?.name ?? 'a paid plan',
        billingPath: projectPath(projectId, 'billing'),
      };
  // The instance's own SDK URLs and SRI hashes, from @tracker/server (absent if it has none).
  return { issueCount: result.issues.totalCount, releases, sdk: args.context.sdk ?? null };
}

// The project's setup page; for a project without issues yet it is the empty state.
export default function ProjectSetupPage() {
  const { issueCount, releases, sdk } = useLoaderData<typeof loader>();
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
      <SetupInstructions dsn={project.dsn} sdk={sdk} releases={releases} focusDsn={issueCount === 0} />
    </section>
  );
}
