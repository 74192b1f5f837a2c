import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormError } from '../components/field';
import { SecretOnce } from '../components/secret-once';
import { RelativeTime } from '../components/time';
import { ApiTokensSection } from '../features/settings/api-tokens-section';
import { InboundFiltersSection } from '../features/settings/inbound-filters';
import {
  INBOUND_FILTERS_INTENT,
  INBOUND_FILTERS_QUERY,
  saveInboundFilters,
} from '../features/settings/inbound-filters.server';
import { KeysSection } from '../features/settings/keys-section';
import { MembersSection } from '../features/settings/members-section';
import {
  API_TOKENS_QUERY,
  INVITATIONS_QUERY,
  KEYS_QUERY,
  MEMBERS_QUERY,
  PROJECT_ORG_QUERY,
  UPLOAD_TOKENS_QUERY,
} from '../features/settings/queries';
import { runSettingsAction } from '../features/settings/settings-action.server';
import type { SectionData } from '../features/settings/settings-section';
import { UploadTokensSection } from '../features/settings/upload-tokens-section';
import { queryApi, tryQueryApi, type ApiResult } from '../lib/graphql.server';

/** A section's data, or why the viewer cannot see it. */
function section<T>(result: ApiResult<T>): SectionData<T> {
  if (result.ok) return { data: result.data, reason: null };
  return {
    data: null,
    reason: result.error.code === 'FORBIDDEN' ? 'Only owners and admins can see this.' : result.error.message,
  };
}

async function requireProject(args: LoaderFunctionArgs) {
  const { project } = await queryApi(args, PROJECT_ORG_QUERY, { id: args.params.projectId ?? '' });
  if (!project) throw data({ message: 'This project does not exist or is not yours.' }, { status: 404 });
  return project;
}

export const meta: MetaFunction = () => [{ title: 'Settings · Tracker' }];

export async function loader(args: LoaderFunctionArgs) {
  const project = await requireProject(args);
  const projectVars = { projectId: project.id };
  const orgVars = { organizationId: project.organizationId };
  const [keys, uploadTokens, members, invitations, apiTokens, inboundFilters] = await Promise.all([
    tryQueryApi(args, KEYS_QUERY, projectVars),
    tryQueryApi(args, UPLOAD_TOKENS_QUERY, projectVars),
    tryQueryApi(args, MEMBERS_QUERY, orgVars),
    tryQueryApi(args, INVITATIONS_QUERY, orgVars),
    tryQueryApi(args, API_TOKENS_QUERY),
    tryQueryApi(args, INBOUND_FILTERS_QUERY, projectVars),
  ]);
  return {
    dsn: project.dsn,
    keys: section(keys),
    uploadTokens: section(uploadTokens),
    members: section(members),
    invitations: section(invitations),
    apiTokens: section(apiTokens),
    inboundFilters: section(inboundFilters),
    now: new Date().toISOString(),
  };
}

export async function action(args: ActionFunctionArgs) {
  const project = await requireProject(args);
  // The inbound filters form has its own handler (features/settings/inbound-filters.server.ts).
  const form = await args.request.clone().formData();
  const result =
    form.get('intent') === INBOUND_FILTERS_INTENT
      ? await saveInboundFilters(args, form)
      : await runSettingsAction(args, project.organizationId);
  return data(result, { status: result.error ? 400 : 200 });
}

export default function SettingsPage() {
  const { dsn, keys, uploadTokens, members, invitations, apiTokens, inboundFilters, now } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const time = (iso: string | null) => (iso ? <RelativeTime iso={iso} now={now} /> : '—');
  return (
    <div className="stack">
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

      <KeysSection dsn={dsn} keys={keys} time={time} busy={busy} />
      <InboundFiltersSection filters={inboundFilters} busy={busy} />
      <UploadTokensSection tokens={uploadTokens} time={time} busy={busy} />
      <MembersSection members={members} invitations={invitations} time={time} busy={busy} />
      <ApiTokensSection tokens={apiTokens} time={time} busy={busy} />
    </div>
  );
}
