import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Field, FormError } from '../components/field';
import { RelativeTime } from '../components/time';
import { readString } from '../lib/form.server';
import { formatDateTime } from '../lib/format';
import { mutateApi, queryApi } from '../lib/graphql.server';
import { projectPath } from '../lib/paths';
import { hasReleaseHealth, planName } from '../lib/plans';
import { useProjectAndOrg } from '../lib/project-org';
import { visibleText } from '../lib/visible-text';

const RELEASES_SHOWN = 200;

// TODO(issue 7): release health per release (issues introduced, regressions, crash-free users,
// events per hour against the previous release) once `Release` has those fields.
const RELEASES_QUERY = /* GraphQL */ `
  query ProjectReleases($projectId: ID!, $first: Int!) {
    releases(projectId: $projectId, first: $first) {
      id
      version
      environment
      deployedAt
    }
  }
`;

const MARK_RELEASE = /* GraphQL */ `
  mutation MarkRelease($projectId: ID!, $version: String!, $environment: String) {
    markRelease(projectId: $projectId, version: $version, environment: $environment) {
      id
      version
      environment
      deployedAt
    }
  }
`;

type Release = { id: string; version: string; environment: string; deployedAt: string };

export const meta: MetaFunction = () => [{ title: 'Releases · Tracker' }];

export async function loader(args: LoaderFunctionArgs) {
  const { releases } = await queryApi<{ releases: Release[] }>(args, RELEASES_QUERY, {
    projectId: args.params.projectId,
    first: RELEASES_SHOWN,
  });
  return { releases, now: new Date().toISOString() };
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const version = readString(form, 'version');
  const environment = readString(form, 'environment') || 'production';
  if (!version)
    return data({ error: 'Enter the version you deployed.', planRequired: false, marked: null }, { status: 400 });
  const result = await mutateApi<{ markRelease: Release }>(args, MARK_RELEASE, {
    projectId: args.params.projectId,
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
function groupByEnvironment(releases: Release[]): [string, Release[]][] {
  const groups = new Map<string, Release[]>();
  for (const release of releases) {
    const list = groups.get(release.environment) ?? [];
    list.push(release);
    groups.set(release.environment, list);
  }
  return [...groups.entries()];
}

export default function ReleasesPage() {
  const { releases, now } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const { project, organization } = useProjectAndOrg();
  const allowed = organization ? hasReleaseHealth(organization.plan) && !actionData?.planRequired : true;
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
              Releases and release health are part of the Pro and Business plans
              {organization ? (
                <>
                  {' '}
                  ; {visibleText(organization.name)} is on {planName(organization.plan)}
                </>
              ) : null}
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
        <p className="hint">
          CI can do the same with an upload token: <code>POST /ingest/release</code> or{' '}
          <code>tracker-upload-sourcemaps</code>.
        </p>
      </section>

      {releases.length === 0 ? (
        <p className="empty">No releases yet. Mark one above, or register it from your deploy.</p>
      ) : (
        groupByEnvironment(releases).map(([environment, list]) => (
          <section key={environment} className="card" aria-label={`Releases in ${visibleText(environment)}`}>
            <h2>
              <span className="muted">Environment</span> {visibleText(environment)}
            </h2>
            <table className="data-table">
              <caption className="visually-hidden">Releases in {visibleText(environment)}, newest deploy first</caption>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Deployed</th>
                  <th scope="col">Deploy time (UTC)</th>
                </tr>
              </thead>
              <tbody>
                {list.map((r, i) => (
                  <tr key={r.id}>
                    <th scope="row" className="mono break">
                      {visibleText(r.version)}
                      {i === 0 && <span className="tag tag-accent">latest</span>}
                    </th>
                    <td>
                      <RelativeTime iso={r.deployedAt} now={now} />
                    </td>
                    <td>{formatDateTime(r.deployedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))
      )}
    </div>
  );
}
