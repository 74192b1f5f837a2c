import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { clearStateCookie, readStateCookie } from '../features/sso/sso-state.server';
import { postGraphQL } from '../lib/graphql.server';
import { createSessionCookie } from '../lib/session.server';
import { graphql } from '../graphql';

const COMPLETE_SSO_MUTATION = graphql(`
  mutation CompleteSsoLogin($parameters: String!) {
    completeSsoLogin(parameters: $parameters) {
      token
    }
  }
`);

export const meta: MetaFunction = () => [{ title: 'Single sign-on · Tracker' }];

/**
 * Where the provider sends the browser back. The `state` must be the one this browser started
 * with (its cookie); the API then claims the attempt once and checks the provider's answer.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const headers = new Headers({ 'Set-Cookie': await clearStateCookie(request, context) });
  const fail = (message: string, status = 401) => data({ error: message }, { status, headers });
  const expected = await readStateCookie(request, context);
  const state = url.searchParams.get('state');
  if (!expected || !state || state !== expected) {
    return fail('This sign-in was not started in this browser, or it was already used: start again.');
  }
  const result = await postGraphQL(context, COMPLETE_SSO_MUTATION, { parameters: url.search });
  if (!result.ok) return fail(result.error.message, result.error.code === 'UNAVAILABLE' ? 503 : 401);
  headers.append('Set-Cookie', await createSessionCookie(request, context, result.data.completeSsoLogin.token));
  return redirect('/', { headers });
}

export default function SsoCallbackPage() {
  const { error } = useLoaderData<typeof loader>();
  return (
    <main className="page page-narrow">
      <h1 className="brand-heading">Single sign-on failed</h1>
      <div className="card">
        <p role="alert" className="form-error">
          {error}
        </p>
        <p>
          <Link to="/login">Back to sign in</Link>
        </p>
      </div>
    </main>
  );
}
