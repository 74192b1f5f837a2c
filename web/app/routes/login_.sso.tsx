import { data, redirect, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useSearchParams } from '@remix-run/react';
import { SsoSignIn } from '../features/sso/sso-sign-in';
import { createStateCookie } from '../features/sso/sso-state.server';
import { readString } from '../lib/form.server';
import { postGraphQL } from '../lib/graphql.server';
import { graphql } from '../graphql';

const START_SSO_MUTATION = graphql(`
  mutation StartSsoLogin($email: String!) {
    startSsoLogin(email: $email) {
      authorizationUrl
      state
    }
  }
`);

export const meta: MetaFunction = () => [{ title: 'Sign in with SSO · Tracker' }];

/** The answer sends the browser to the provider, with this attempt's state in a cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const result = await postGraphQL(context, START_SSO_MUTATION, { email: readString(form, 'email') });
  if (!result.ok) {
    const status = result.error.code === 'UNAVAILABLE' ? 503 : result.error.code === 'NOT_FOUND' ? 404 : 400;
    return data({ error: result.error.message }, { status });
  }
  const { authorizationUrl, state } = result.data.startSsoLogin;
  return redirect(authorizationUrl, { headers: { 'Set-Cookie': await createStateCookie(request, context, state) } });
}

export default function SsoLoginPage() {
  const [searchParams] = useSearchParams();
  return (
    <main className="page page-narrow">
      <h1 className="brand-heading">Sign in with SSO</h1>
      <SsoSignIn defaultEmail={searchParams.get('email') ?? undefined} />
      <p className="aside">
        <Link to="/login">Sign in with a password</Link>
      </p>
    </main>
  );
}
