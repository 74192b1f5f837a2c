import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormError } from '../components/field';
import { SecretOnce } from '../components/secret-once';
import { RelativeTime } from '../components/time';
import { runAccountAction } from '../features/account/account-action.server';
import { EmailSection } from '../features/account/email-section';
import { PasswordSection } from '../features/account/password-section';
import { ACCOUNT_QUERY } from '../features/account/queries';
import { SessionsSection } from '../features/account/sessions-section';
import { ApiTokensSection } from '../features/settings/api-tokens-section';
import { API_TOKENS_QUERY } from '../features/settings/queries';
import { queryApi } from '../lib/graphql.server';

export const meta: MetaFunction = () => [{ title: 'Account · Tracker' }];

// The signed-in person's own settings: email, password, sessions, API tokens. Nothing here is
// about an organization. (Two-factor authentication has its own page, /account/two-factor.)
export async function loader(args: LoaderFunctionArgs) {
  const [account, tokens] = await Promise.all([queryApi(args, ACCOUNT_QUERY), queryApi(args, API_TOKENS_QUERY)]);
  if (!account.viewer) throw data({ message: 'Sign in first.' }, { status: 401 });
  return { viewer: account.viewer, sessions: account.sessions, apiTokens: tokens, now: new Date().toISOString() };
}

export async function action(args: ActionFunctionArgs) {
  const { result, cookie } = await runAccountAction(args);
  return data(result, { status: result.error ? 400 : 200, headers: cookie ? { 'Set-Cookie': cookie } : undefined });
}

export default function AccountPage() {
  const { viewer, sessions, apiTokens, now } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const time = (iso: string | null) => (iso ? <RelativeTime iso={iso} now={now} /> : '—');
  return (
    <div className="stack">
      <h1>Your account</h1>
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
      <EmailSection
        email={viewer.email}
        emailVerified={viewer.emailVerified}
        pendingEmail={viewer.pendingEmail ?? null}
        busy={busy}
      />
      <PasswordSection busy={busy} />
      <SessionsSection sessions={sessions} time={time} busy={busy} />
      <ApiTokensSection tokens={{ data: apiTokens, reason: null }} time={time} busy={busy} />
    </div>
  );
}
