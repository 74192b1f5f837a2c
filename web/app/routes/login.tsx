import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation, useSearchParams } from '@remix-run/react';
import { Field, FormError } from '../components/field';
import { postGraphQL } from '../lib/graphql.server';
import { safeRedirectPath } from '../lib/safe-redirect';
import { createSessionCookie, findSessionToken } from '../lib/session.server';
import { graphql } from '../graphql';

const LOGIN_MUTATION = graphql(`
  mutation Login($email: String!, $password: String!) {
    login(email: $email, password: $password) {
      token
    }
  }
`);

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
  const email = String(form.get('email') ?? '').trim();
  const password = String(form.get('password') ?? '');
  const result = await postGraphQL(context, LOGIN_MUTATION, { email, password });
  if (!result.ok) {
    return data({ error: result.error.message, email }, { status: result.error.code === 'UNAVAILABLE' ? 503 : 400 });
  }
  const cookie = await createSessionCookie(request, context, result.data.login.token);
  return redirect(safeRedirectPath(form.get('redirectTo')), { headers: { 'Set-Cookie': cookie } });
}

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const busy = useNavigation().state === 'submitting';
  return (
    <main className="page page-narrow">
      <h1 className="brand-heading">Sign in to Tracker</h1>
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
        <Link to="/login/sso">Sign in with SSO</Link>
      </p>
      <p className="aside">
        New to Tracker? <Link to="/signup">Create an account</Link>
      </p>
    </main>
  );
}
