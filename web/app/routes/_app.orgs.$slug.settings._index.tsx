import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormError } from '../components/field';
import { SecretOnce } from '../components/secret-once';
import { RelativeTime } from '../components/time';
import { NameSection } from '../features/organization/name-section';
import {
  ORG_BY_SLUG_QUERY,
  ORG_SETTINGS_QUERY,
  RENAME_ORGANIZATION,
  SET_REQUIRE_TWO_FACTOR,
} from '../features/organization/queries';
import { TwoFactorSection } from '../features/organization/two-factor-section';
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
async function requireOrganization(args: LoaderFunctionArgs) {
  const { viewer } = await queryApi(args, ORG_BY_SLUG_QUERY);
  const org = viewer?.organizations.find((o) => o.slug === args.params.slug);
  if (!viewer || !org) throw data({ message: 'This organization does not exist or is not yours.' }, { status: 404 });
  return { id: org.id, viewer };
}

export async function loader(args: LoaderFunctionArgs) {
  const { id, viewer } = await requireOrganization(args);
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
    viewer: { id: viewer.id, twoFactorEnabled: viewer.twoFactorEnabled },
    now: new Date().toISOString(),
  };
}

export async function action(args: ActionFunctionArgs) {
  const { id } = await requireOrganization(args);
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  let result: SettingsActionResult;
  if (intent === 'renameOrganization') {
    const r = await mutateApi(args, RENAME_ORGANIZATION, { id, name: readString(form, 'name') });
    result = r.ok
      ? { error: null, done: 'Organization renamed.', secret: null }
      : { error: r.error.message, done: null, secret: null };
  } else if (intent === 'setRequireTwoFactor') {
    const required = readString(form, 'required') === 'true';
    const r = await mutateApi(args, SET_REQUIRE_TWO_FACTOR, { id, required });
    result = r.ok
      ? {
          error: null,
          done: required ? 'Two-factor is now required.' : 'Two-factor is no longer required.',
          secret: null,
        }
      : { error: r.error.message, done: null, secret: null };
  } else {
    // Members and invitations: the same intents as they had on the project settings page.
    result = await runSettingsAction(args, id, form);
  }
  return data(result, { status: result.error ? 400 : 200 });
}

export default function OrganizationSettingsPage() {
  const { organization, members, invitations, viewer, now } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const time = (iso: string | null) => (iso ? <RelativeTime iso={iso} now={now} /> : '—');
  const firstProject = organization.projects[0];
  const memberList = members.data?.members ?? [];
  const isOwner = memberList.some((m) => m.userId === viewer.id && m.role === 'OWNER');
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
      <TwoFactorSection
        required={organization.requireTwoFactor}
        isOwner={isOwner}
        viewerHasTwoFactor={viewer.twoFactorEnabled}
        membersWithout={memberList.filter((m) => !m.twoFactorEnabled).length}
        busy={busy}
      />
      <UsageSection
        usage={organization.usage}
        plan={organization.plan}
        billingPath={firstProject ? projectPath(firstProject.id, 'billing') : null}
      />
    </div>
  );
}
