import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Field, FormError } from '../components/field';
import { HEALTH_COLUMNS, ReleaseHealthCells } from '../components/release-health';
import { RelativeTime } from '../components/time';
import { readString } from '../lib/form.server';
import { formatDateTime } from '../lib/format';
import { mutateApi, queryApi, tryQueryApi } from '../lib/graphql.server';
import { projectPath, releasePath } from '../lib/paths';
import { findPlan, planName, releaseHealthPlanNames } from '../lib/plans';
import { useProjectAndOrg } from '../lib/project-org';
import type { ReleaseHealth } from '../lib/release-health';
import { visibleText } from '../lib/visible-text';
import { graphql } from '../graphql';
import type { ReleaseVersionFieldsFragment } from '../graphql/graphql';
import { ReleaseVersionDetails } from '../features/releases/release-commits';
import { UNREGISTERED_RELEASES_QUERY, UnregisteredReleasesSection } from '../features/releases/unregistered-releases';

const RELEASES_SHOWN = 200;

// The plan decides whether health is asked for at all: on a plan without it the page must not
// ask (the API would answer PLAN_REQUIRED per release). So the first round trip reads the plan,
// the catalogue and the plain list (all a Free page needs), and only a plan with release health
// costs a second one for the figures. Asking for health blindly and discarding PLAN_REQUIRED
// would save that trip on Pro but send Free organizations' pages a request they cannot use.
const RELEASES_QUERY = graphql(`
  query ProjectReleases($projectId: ID!, $first: Int!) {
    project(id: $projectId) {
      id
      organizationId
    }
    viewer {
      id
      organizations {
        id
        slug
        name
        plan
      }
    }
    plans {
      ...PlanFields
    }
    releases(projectId: $projectId, first: $first) {
      id
      version
      environment
      deployedAt
      ...ReleaseVersionFields
    }
  }
`);

const RELEASE_HEALTH_QUERY = graphql(`
  query ProjectReleaseHealth($projectId: ID!, $first: Int!) {
    releases(projectId: $projectId, first: $first) {
      id
      version
      environment
      deployedAt
      ...ReleaseVersionFields
      health {
        ...ReleaseHealthFields
      }
    }
  }
`);

const MARK_RELEASE = graphql(`
  mutation MarkRelease($projectId: ID!, $version: String!, $environment: String) {
    markRelease(projectId: $projectId, version: $version, environment: $environment) {
      id
      version
      environment
      deployedAt
    }
  }
`);

type Release = {
  id: string;
  version: string;
  environment: string;
  deployedAt: string;
} & Partial<ReleaseVersionFieldsFragment>;
type ReleaseRow = Release & { health?: ReleaseHealth | null };

export const meta: MetaFunction = () => [{ title: 'Releases · Tracker' }];

export async function loader(args: LoaderFunctionArgs) {
  const variables = { projectId: args.params.projectId ?? '', first: RELEASES_SHOWN };
  const first = await queryApi(args, RELEASES_QUERY, variables);
  // The API answers null both for a missing project and for someone else's: same 404 for both.
  if (!first.project) throw data({ message: 'This project does not exist or is not yours.' }, { status: 404 });
  const organization = first.viewer?.organizations.find((o) => o.id === first.project?.organizationId) ?? null;
  const plan = organization ? findPlan(first.plans, organization.plan) : undefined;
  const healthIncluded = plan?.releaseHealth ?? false;
  const [releases, unregistered] = await Promise.all([
    healthIncluded
      ? queryApi(args, RELEASE_HEALTH_QUERY, variables).then((r): ReleaseRow[] => r.releases)
      : Promise.resolve<ReleaseRow[]>(first.releases),
    // Extra: the page still opens when the list cannot be read.
    tryQueryApi(args, UNREGISTERED_RELEASES_QUERY, { projectId: variables.projectId }),
  ]);
  return {
    projectId: first.project.id,
    releases,
    unregistered: unregistered.ok ? unregistered.data.unregisteredReleases : [],
    healthIncluded,
    organization: organization && { name: organization.name, planName: planName(first.plans, organization.plan) },
    healthPlans: releaseHealthPlanNames(first.plans),
    now: new Date().toISOString(),
  };
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const version = readString(form, 'version');
  const environment = readString(form, 'environment') || 'production';
  if (!version)
    return data({ error: 'Enter the version you deployed.', planRequired: false, marked: null }, { status: 400 });
  const result = await mutateApi(args, MARK_RELEASE, {
    projectId: args.params.projectId ?? '',
    version,
    environment,
  });
  if (!result.ok) {
    const planRequired = result.error.code === 'PLAN_REQUIRED';
    return data({ error: result.error.message, planRequired, marked: null }, { status: planRequired ? 402 : 400 });
  }
  return { error: null, planRequired: false, marked: result.data.markRelease };
}

/** Newest deploy first inside each environment; environments ordered by their newest deploy. */
function groupByEnvironment<R extends Release>(releases: R[]): [string, R[]][] {
  const groups = new Map<string, R[]>();
  for (const release of releases) {
    const list = groups.get(release.environment) ?? [];
    list.push(release);
    groups.set(release.environment, list);
  }
  return [...groups.entries()];
}

export default function ReleasesPage() {
  const { projectId, releases, unregistered, healthIncluded, organization, healthPlans, now } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const { project } = useProjectAndOrg();
  const allowed = healthIncluded && !actionData?.planRequired;
  const billing = project ? projectPath(project.id, 'billing') : '/';
  return (
    <div className="stack">
      <section className="card" aria-labelledby="mark-heading">
        <h2 id="mark-heading">Mark release</h2>
        {allowed ? (
          // Keyed by the last marked release so the fields clear after a success.
          <Form method="post" className="form form-inline" key={actionData?.marked?.id ?? 'new'}>
            <Field label="Version" name="version" required placeholder="1.4.2 or a commit SHA" autoComplete="off" />
            <Field label="Environment" name="environment" defaultValue="production" autoComplete="off" />
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? 'Marking…' : 'Mark release'}
            </button>
          </Form>
        ) : (
          <div className="upgrade">
            <p>
              Releases and release health are part of the {healthPlans} plans
              {organization && (
                <>
                  ; {visibleText(organization.name)} is on {organization.planName}
                </>
              )}
              . With them, Tracker tells regressions from old errors, shows which release introduced each issue, and
              compares crash-free users and events per hour with the previous release.
            </p>
            <Link to={billing} className="button button-primary">
              Upgrade in Billing
            </Link>
          </div>
        )}
        <FormError message={actionData?.planRequired ? null : actionData?.error} />
        {actionData?.marked && (
          <p className="notice" role="status">
            Marked <span className="mono">{visibleText(actionData.marked.version)}</span> in{' '}
            {visibleText(actionData.marked.environment)} at {formatDateTime(actionData.marked.deployedAt)}.
          </p>
        )}
        {allowed ? (
          <p className="hint">
            CI can do the same with an upload token: <code>POST /ingest/release</code> or{' '}
            <code>tracker-upload-sourcemaps</code>.
          </p>
        ) : (
          <p className="hint">
            On every plan, source maps uploaded with <code>tracker-upload-sourcemaps</code> de-minify the stack traces
            of events that carry their release.
          </p>
        )}
      </section>

      {releases.length === 0 ? (
        <p className="empty">
          {allowed
            ? 'No releases yet. Mark one above, or register it from your deploy.'
            : 'No releases yet: registering them is part of the plans named above.'}
        </p>
      ) : (
        groupByEnvironment(releases).map(([environment, list]) => (
          <section key={environment} className="card" aria-label={`Releases in ${visibleText(environment)}`}>
            <h2>
              <span className="muted">Environment</span> {visibleText(environment)}
            </h2>
            <div className="table-scroll" tabIndex={0}>
              <table className="data-table releases-table">
                <caption className="visually-hidden">
                  Releases in {visibleText(environment)}, newest deploy first
                  {healthIncluded && ', each compared with the deploy before it'}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Version</th>
                    <th scope="col">Deployed</th>
                    {healthIncluded &&
                      HEALTH_COLUMNS.map((c) => (
                        <th key={c} scope="col" className="num">
                          {c}
                        </th>
                      ))}
                  </tr>
                </thead>
                <tbody>
                  {list.map((r, i) => (
                    <tr key={r.id}>
                      <th scope="row" className="break">
                        <Link className="mono release-version" to={releasePath(projectId, r.version)}>
                          {visibleText(r.version)}
                        </Link>
                        {i === 0 && <span className="tag tag-accent">latest</span>}
                        {r.health && r.health.previousVersion === null && (
                          <span className="health-previous">first in {visibleText(environment)}</span>
                        )}
                        <ReleaseVersionDetails release={r} />
                      </th>
                      <td>
                        <RelativeTime iso={r.deployedAt} now={now} />
                        <span className="health-previous">{formatDateTime(r.deployedAt)}</span>
                      </td>
                      {healthIncluded && <ReleaseHealthCells health={r.health ?? null} />}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        ))
      )}
      <UnregisteredReleasesSection releases={unregistered} canRegister={allowed} busy={busy} now={now} />
      {healthIncluded && releases.length > 0 && (
        <p className="hint">
          Each figure is compared with the deploy before it in the same environment. Issues introduced: first seen in
          this environment with this release. Regressions: issues an event of this release reopened. Crash-free users:
          of the users its error events named, the share with no fatal or unhandled error (Tracker records no sessions,
          so users who met no error are not counted). Events per hour: from this deploy to the next one, or now. Until a
          release has run 30 minutes and seen 20 events, its row shows raw counts and says &ldquo;not enough data
          yet&rdquo;: a rate or a change from a few minutes of data would mislead.
        </p>
      )}
    </div>
  );
}
