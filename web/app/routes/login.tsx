import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation, useSearchParams } from '@remix-run/react';
import { Field, FormError } from '../components/field';
import { postGraphQL } from '../lib/graphql.server';
import { safeRedirectPath } from '../lib/safe-redirect';
import { createSessionCookie, findSessionToken } from '../lib/session.server';
import { graphql } from '../graphql';

const SIGN_IN_MUTATION = graphql(`
  mutation SignIn($email: String!, $password: String!) {
    signIn(email: $email, password: $password) {
      session {
        token
      }
      twoFactorChallenge
      twoFactorEnrolmentRequired
    }
  }
`);

const CODE_MUTATION = graphql(`
  mutation SignInWithTwoFactor($challenge: String!, $code: String!) {
    signInWithTwoFactor(challenge: $challenge, code: $code) {
      token
      user {
        twoFactorEnabled
      }
    }
  }
`);

const status = (code: string) => (code === 'UNAVAILABLE' ? 503 : 400);

export const meta: MetaFunction = () => [{ title: 'Sign in · Tracker' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await findSessionToken(request, context)) {
    return redirect(safeRedirectPath(url.searchParams.get('redirectTo')));
  }
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const redirectTo = safeRedirectPath(form.get('redirectTo'));
  const challenge = String(form.get('challenge') ?? '');
  if (challenge) {
    // The code step (two-factor): the challenge stands for the password already checked.
    const result = await postGraphQL(context, CODE_MUTATION, { challenge, code: String(form.get('code') ?? '') });
    if (!result.ok) {
      const expired = result.error.code === 'UNAUTHENTICATED' && !result.error.message.startsWith('code:');
      return data(
        { error: result.error.message, email: '', challenge: expired ? null : challenge },
        { status: status(result.error.code) },
      );
    }
    const cookie = await createSessionCookie(request, context, result.data.signInWithTwoFactor.token);
    return redirect(redirectTo, { headers: { 'Set-Cookie': cookie } });
  }
  const email = String(form.get('email') ?? '').trim();
  const password = String(form.get('password') ?? '');
  const result = await postGraphQL(context, SIGN_IN_MUTATION, { email, password });
  if (!result.ok) {
    return data({ error: result.error.message, email, challenge: null }, { status: status(result.error.code) });
  }
  const { session, twoFactorChallenge, twoFactorEnrolmentRequired } = result.data.signIn;
  if (!session) return data({ error: null, email, challenge: twoFactorChallenge });
  const cookie = await createSessionCookie(request, context, session.token);
  // An organization requires two-factor and this account has none: enrol before anything else.
  const next = twoFactorEnrolmentRequired ? `/account/two-factor?required=1&redirectTo=${encodeURIComponent(redirectTo)}` : redirectTo;
  return redirect(next, { headers: { 'Set-Cookie': cookie } });
}

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const busy = useNavigation().state === 'submitting';
  if (actionData?.challenge) return <CodeStep challenge={actionData.challenge} error={actionData.error} busy={busy} />;
  return (
    <main className="page page-narrow">
      <h1 className="brand-heading">Sign in to Tracker</h1>
      {searchParams.get('reset') === '1' && (
        <p className="card" role="status">
          Your password was changed and every session signed out: sign in with the new one.
        </p>
      )}
      <Form method="post" className="card form">
        <input type="hidden" name="redirectTo" value={safeRedirectPath(searchParams.get('redirectTo'))} />
        <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={actionData?.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <FormError message={actionData?.error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </Form>
      <p className="aside">
        <Link to="/forgot-password">Forgot your password?</Link> · <Link to="/login/sso">Sign in with SSO</Link>
      </p>
      <p className="aside">
        New to Tracker? <Link to="/signup">Create an account</Link>
      </p>
    </main>
  );
}

/** After the password, for an account with two-factor on: the app's code or a recovery code. */
function CodeStep({ challenge, error, busy }: { challenge: string; error: string | null; busy: boolean }) {
  const [searchParams] = useSearchParams();
  return (
    <main className="page page-narrow">
      <h1 className="brand-heading">Two-factor authentication</h1>
      <Form method="post" className="card form">
        <input type="hidden" name="redirectTo" value={safeRedirectPath(searchParams.get('redirectTo'))} />
        <input type="hidden" name="challenge" value={challenge} />
        <Field
          label="Code"
          name="code"
          type="text"
          inputMode="text"
          autoComplete="one-time-code"
          autoFocus
          required
          maxLength={40}
          hint="The 6-digit code from your authenticator app, or one of your recovery codes (xxxxx-xxxxx)."
        />
        <FormError message={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Checking…' : 'Verify'}
        </button>
      </Form>
      <p className="aside">
        Lost your phone and your recovery codes? The operator of this Tracker can turn two-factor off for your
        account. <Link to="/login">Start again</Link>
      </p>
    </main>
  );
}
