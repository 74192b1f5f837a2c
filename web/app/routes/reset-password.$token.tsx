import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Field, FormError } from '../components/field';
import { postGraphQL } from '../lib/graphql.server';
import { graphql } from '../graphql';

const CHECK_RESET = graphql(`
  query PasswordReset($token: String!) {
    passwordReset(token: $token) {
      email
    }
  }
`);

const RESET = graphql(`
  mutation ResetPassword($token: String!, $newPassword: String!) {
    resetPassword(token: $token, newPassword: $newPassword)
  }
`);

export const meta: MetaFunction = () => [{ title: 'Choose a new password · Tracker' }, { name: 'referrer', content: 'no-referrer' }];

export async function loader({ params, context }: LoaderFunctionArgs) {
  const result = await postGraphQL(context, CHECK_RESET, { token: params.token ?? '' });
  if (!result.ok) throw data({ message: result.error.message, code: result.error.code }, { status: 502 });
  return { email: result.data.passwordReset?.email ?? null };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const newPassword = String(form.get('newPassword') ?? '');
  if (newPassword !== String(form.get('confirmPassword') ?? '')) {
    return data({ error: 'The two passwords differ: type the same one twice' }, { status: 400 });
  }
  const result = await postGraphQL(context, RESET, { token: params.token ?? '', newPassword });
  if (!result.ok) return data({ error: result.error.message }, { status: result.error.code === 'UNAVAILABLE' ? 503 : 400 });
  return redirect('/login?reset=1');
}

export default function ResetPasswordPage() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <main className="page page-narrow">
      <h1 className="brand-heading">Choose a new password</h1>
      {email === null ? (
        <div className="card" role="status">
          <p>This reset link is no longer valid: it was used, replaced by a newer one, or is more than an hour old.</p>
          <p>
            <Link to="/forgot-password">Ask for a new link</Link>
          </p>
        </div>
      ) : (
        <Form method="post" className="card form">
          <p>
            For <strong>{email}</strong>. Saving signs out every session of this account, everywhere.
          </p>
          <input type="email" name="email" value={email} autoComplete="username" readOnly hidden />
          <Field label="New password" name="newPassword" type="password" autoComplete="new-password" required hint="At least 8 characters." />
          <Field label="New password, again" name="confirmPassword" type="password" autoComplete="new-password" required />
          <FormError message={actionData?.error} />
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save the new password'}
          </button>
        </Form>
      )}
    </main>
  );
}
