import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import {
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import { FormError } from '../components/field';
import { SecretOnce } from '../components/secret-once';
import { RelativeTime } from '../components/time';
import { InboundFiltersSection } from '../features/settings/inbound-filters';
import {
  INBOUND_FILTERS_INTENT,
  INBOUND_FILTERS_QUERY,
  saveInboundFilters,
} from '../features/settings/inbound-filters.server';
import { KeysSection } from '../features/settings/keys-section';
import {
  PRIVACY_INTENTS,
  runPrivacyAction,
  type PrivacyActionResult,
} from '../features/settings/privacy-action.server';
import { PRIVACY_QUERY } from '../features/settings/privacy-queries';
import { PrivacySection } from '../features/settings/privacy-section';
import { KEYS_QUERY, PROJECT_ORG_QUERY, UPLOAD_TOKENS_QUERY } from '../features/settings/queries';
import { runSettingsAction } from '../features/settings/settings-action.server';
import { sectionOf } from '../features/settings/settings-section';
import { TraceLinkSection } from '../features/settings/trace-link-section';
import { UploadTokensSection } from '../features/settings/upload-tokens-section';
import { queryApi, tryQueryApi } from '../lib/graphql.server';
import type { loader as appLoader } from './_app';

async function requireProject(args: LoaderFunctionArgs) {
  const { project } = await queryApi(args, PROJECT_ORG_QUERY, { id: args.params.projectId ?? '' });
  if (!project) throw data({ message: 'This project does not exist or is not yours.' }, { status: 404 });
  return project;
}

export const meta: MetaFunction = () => [{ title: 'Settings · Tracker' }];

/** A preview saves nothing: the live preview's fetcher posts must not reload the page's data each time. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get('intent') === 'previewPrivacy' ? false : defaultShouldRevalidate;

export async function loader(args: LoaderFunctionArgs) {
  const project = await requireProject(args);
  const projectVars = { projectId: project.id };
  const [keys, uploadTokens, privacy, inboundFilters] = await Promise.all([
    tryQueryApi(args, KEYS_QUERY, projectVars),
    tryQueryApi(args, UPLOAD_TOKENS_QUERY, projectVars),
    queryApi(args, PRIVACY_QUERY, projectVars),
    tryQueryApi(args, INBOUND_FILTERS_QUERY, projectVars),
  ]);
  return {
    dsn: project.dsn,
    organizationId: project.organizationId,
    traceUrlTemplate: project.traceUrlTemplate ?? null,
    keys: sectionOf(keys),
    uploadTokens: sectionOf(uploadTokens),
    privacy: privacy.project!.privacy,
    preview: privacy.previewScrubbing,
    inboundFilters: sectionOf(inboundFilters),
    now: new Date().toISOString(),
  };
}

export async function action(args: ActionFunctionArgs) {
  const project = await requireProject(args);
  const form = await args.request.formData();
  const intent = String(form.get('intent') ?? '');
  // The privacy and inbound filters forms have their own handlers (features/settings/).
  const result: PrivacyActionResult = (PRIVACY_INTENTS as readonly string[]).includes(intent)
    ? await runPrivacyAction(args, form)
    : intent === INBOUND_FILTERS_INTENT
      ? { ...(await saveInboundFilters(args, form)), preview: null }
      : { ...(await runSettingsAction(args, project.organizationId, form)), preview: null };
  return data(result, { status: result.error ? 400 : 200 });
}

export default function SettingsPage() {
  const { dsn, organizationId, traceUrlTemplate, keys, uploadTokens, privacy, preview, inboundFilters, now } =
    useLoaderData<typeof loader>();
  const app = useRouteLoaderData<typeof appLoader>('routes/_app');
  const orgSlug = app?.viewer.organizations.find((o) => o.id === organizationId)?.slug;
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
      <UploadTokensSection tokens={uploadTokens} time={time} busy={busy} />
      <PrivacySection privacy={privacy} preview={preview} answer={result} busy={busy} />
      <InboundFiltersSection filters={inboundFilters} busy={busy} />
      <TraceLinkSection template={traceUrlTemplate} busy={busy} />
      <p className="muted settings-elsewhere">
        Members and invitations are in{' '}
        {orgSlug ? (
          <Link to={`/orgs/${encodeURIComponent(orgSlug)}/settings`}>the organization&apos;s settings</Link>
        ) : (
          "the organization's settings"
        )}
        ; your API tokens, password and sessions in <Link to="/account">your account</Link>.
      </p>
    </div>
  );
}
