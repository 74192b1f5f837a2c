import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormError } from '../components/field';
import { SecretOnce } from '../components/secret-once';
import { RelativeTime } from '../components/time';
import { NameSection } from '../features/organization/name-section';
import { ORG_BY_SLUG_QUERY, ORG_SETTINGS_QUERY, RENAME_ORGANIZATION } from '../features/organization/queries';
import { UsageSection } from '../features/organization/usage-section';
import { MembersSection } from '../features/settings/members-section';
import { INVITATIONS_QUERY, MEMBERS_QUERY } from '../features/settings/queries';
import { runSettingsAction, type SettingsActionResult } from '../features/settings/settings-action.server';
import { sectionOf } from '../features/settings/settings-section';
import { readString } from '../lib/form.server';
import { mutateApi, queryApi, tryQueryApi } from '../lib/graphql.server';
import { projectPath } from '../lib/paths';
import { visibleText } from '../lib/visible-text';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.organization.name} settings · Tracker` : 'Organization settings · Tracker' },
];

/** The organization named by the URL's slug, when the viewer is a member; else the same 404 for all. */
async function requireOrganizationId(args: LoaderFunctionArgs): Promise<string> {
  const { viewer } = await queryApi(args, ORG_BY_SLUG_QUERY);
  const org = viewer?.organizations.find((o) => o.slug === args.params.slug);
  if (!org) throw data({ message: 'This organization does not exist or is not yours.' }, { status: 404 });
  return org.id;
}

export async function loader(args: LoaderFunctionArgs) {
  const id = await requireOrganizationId(args);
  const vars = { organizationId: id };
  const [settings, members, invitations] = await Promise.all([
    queryApi(args, ORG_SETTINGS_QUERY, { id }),
    tryQueryApi(args, MEMBERS_QUERY, vars),
    tryQueryApi(args, INVITATIONS_QUERY, vars),
  ]);
  if (!settings.organization)
    throw data({ message: 'This organization does not exist or is not yours.' }, { status: 404 });
  return {
    organization: settings.organization,
    members: sectionOf(members),
    invitations: sectionOf(invitations),
    now: new Date().toISOString(),
  };
}

export async function action(args: ActionFunctionArgs) {
  const id = await requireOrganizationId(args);
  const form = await args.request.formData();
  let result: SettingsActionResult;
  if (readString(form, 'intent') === 'renameOrganization') {
    const r = await mutateApi(args, RENAME_ORGANIZATION, { id, name: readString(form, 'name') });
    result = r.ok
      ? { error: null, done: 'Organization renamed.', secret: null }
      : { error: r.error.message, done: null, secret: null };
  } else {
    // Members and invitations: the same intents as they had on the project settings page.
    result = await runSettingsAction(args, id, form);
  }
  return data(result, { status: result.error ? 400 : 200 });
}

export default function OrganizationSettingsPage() {
  const { organization, members, invitations, now } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const time = (iso: string | null) => (iso ? <RelativeTime iso={iso} now={now} /> : '—');
  const firstProject = organization.projects[0];
  return (
    <div className="stack">
      <h1 className="break">{visibleText(organization.name)}: organization settings</h1>
      {(result?.error || result?.done || result?.secret) && (
        <div aria-live="polite">
          <FormError message={result.error} />
          {result.done && (
            <p className="notice" role="status">
              {result.done}
            </p>
          )}
          {result.secret && <SecretOnce label={result.secret.label} value={result.secret.value} />}
        </div>
      )}
      <NameSection name={organization.name} slug={organization.slug} busy={busy} />
      <MembersSection members={members} invitations={invitations} time={time} busy={busy} />
      <UsageSection
        usage={organization.usage}
        plan={organization.plan}
        billingPath={firstProject ? projectPath(firstProject.id, 'billing') : null}
      />
    </div>
  );
}
