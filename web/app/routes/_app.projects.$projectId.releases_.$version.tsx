import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { isRouteErrorResponse, Link, useLoaderData, useParams, useRouteError } from '@remix-run/react';
import { ErrorMessage } from '../components/error-message';
import {
  RELEASE_DETAIL_HEALTH_QUERY,
  RELEASE_DETAIL_QUERY,
  RELEASE_FILES_SHOWN,
  RELEASE_ISSUES_SHOWN,
} from '../features/releases/queries';
import { CommitList } from '../features/releases/release-commits';
import { ReleaseDeploysSection, type Deploy } from '../features/releases/release-deploys';
import { ReleaseFilesSection } from '../features/releases/release-files';
import { ReleaseIssuesSection } from '../features/releases/release-issues';
import { formatDateTime } from '../lib/format';
import { createErrorResponse, queryApi, tryQueryApi } from '../lib/graphql.server';
import { projectPath } from '../lib/paths';
import { findPlan, releaseHealthPlanNames } from '../lib/plans';
import { visibleText } from '../lib/visible-text';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Release ${data.release.version} · Tracker` : 'Release · Tracker' },
];

/** The same answer for a version never registered and for a project that is not the caller's. */
function notFound(version: string) {
  return data({ message: `No release ${version} in this project.`, version }, { status: 404 });
}

export async function loader(args: LoaderFunctionArgs) {
  const projectId = args.params.projectId ?? '';
  // The router has already decoded the segment (`%2F` → `/`): this is the version as registered.
  const version = args.params.version ?? '';
  const variables = { projectId, version };
  const first = await tryQueryApi(args, RELEASE_DETAIL_QUERY, {
    ...variables,
    issues: RELEASE_ISSUES_SHOWN,
    files: RELEASE_FILES_SHOWN,
  });
  if (!first.ok) {
    // NOT_FOUND: the project is missing or not the caller's; answered like an unknown version.
    if (first.error.code === 'NOT_FOUND') throw notFound(version);
    throw createErrorResponse(first.error);
  }
  const { project, viewer, plans, release } = first.data;
  if (!project || !release) throw notFound(version);
  const organization = viewer?.organizations.find((o) => o.id === project.organizationId);
  // The Releases page's rule: health is asked for only on a plan that has it.
  const healthIncluded = (organization && findPlan(plans, organization.plan)?.releaseHealth) ?? false;
  let deploys: Deploy[] = release.deploys;
  if (healthIncluded) {
    const health = await queryApi(args, RELEASE_DETAIL_HEALTH_QUERY, variables);
    const byId = new Map((health.release?.deploys ?? []).map((d) => [d.id, d.health]));
    deploys = release.deploys.map((d) => ({ ...d, health: byId.get(d.id) ?? null }));
  }
  return {
    projectId: project.id,
    release: { ...release, deploys },
    healthIncluded,
    healthPlans: releaseHealthPlanNames(plans),
    now: new Date().toISOString(),
  };
}

export default function ReleasePage() {
  const { projectId, release, healthIncluded, healthPlans, now } = useLoaderData<typeof loader>();
  const common = { projectId, now };
  return (
    <div className="stack">
      <p className="breadcrumb">
        <Link to={projectPath(projectId, 'releases')}>← All releases</Link>
      </p>
      <section className="card" aria-labelledby="release-heading">
        <h2 id="release-heading" className="break">
          <span className="muted">Release</span> <span className="mono">{visibleText(release.version)}</span>
        </h2>
        <p className="hint">
          Registered {formatDateTime(release.dateCreated)}
          {release.dateReleased && <>, finalized {formatDateTime(release.dateReleased)}</>}. Deployed to{' '}
          {release.deploys.map((d) => visibleText(d.environment)).join(', ')}.{' '}
          <Link to={`${projectPath(projectId, 'issues')}?${new URLSearchParams({ release: release.version })}`}>
            Issues with events of this release
          </Link>
        </p>
      </section>
      <ReleaseDeploysSection
        deploys={release.deploys}
        healthIncluded={healthIncluded}
        healthPlans={healthPlans}
        now={now}
      />
      <ReleaseIssuesSection
        id="release-new-heading"
        title="New in this release"
        hint="Issues whose first event in an environment carried this release."
        atLabel="First seen"
        list={release.newIssues}
        {...common}
      />
      <ReleaseIssuesSection
        id="release-regressed-heading"
        title="Regressed in this release"
        hint="Issues an event of this release reopened: resolved issues that came back, and snoozes that ended."
        atLabel="Regressed"
        list={release.regressedIssues}
        {...common}
      />
      <ReleaseIssuesSection
        id="release-resolved-heading"
        title="Resolved in this release"
        hint="Issues resolved while this was the newest deploy, and still resolved."
        atLabel="Resolved"
        list={release.resolvedIssues}
        {...common}
      />
      <ReleaseFilesSection release={release} now={now} />
      {release.commits.length > 0 && (
        <section className="card" aria-labelledby="release-commits-heading">
          <h2 id="release-commits-heading">Commits</h2>
          <CommitList commits={release.commits} />
        </section>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { projectId } = useParams();
  if (!isRouteErrorResponse(error) || error.status !== 404) return <ErrorMessage />;
  return (
    <section className="error-panel" role="alert">
      <h1>Release not found</h1>
      <p>{visibleText((error.data as { message?: string })?.message ?? 'No such release in this project.')}</p>
      <p>
        <Link to={projectPath(projectId ?? '', 'releases')}>Back to Releases</Link>
      </p>
    </section>
  );
}
