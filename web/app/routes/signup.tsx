import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation } from '@remix-run/react';
import { Field, FormError } from '../components/field';
import { postGraphQL } from '../lib/graphql.server';
import { createSessionCookie, findSessionToken } from '../lib/session.server';
import { graphql } from '../graphql';

const SIGNUP_MUTATION = graphql(`
  mutation Signup($email: String!, $password: String!, $organizationName: String!) {
    signup(email: $email, password: $password, organizationName: $organizationName) {
      token
      checkEmail
    }
  }
`);

export const meta: MetaFunction = () => [{ title: 'Create an account · Tracker' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await findSessionToken(request, context)) return redirect('/');
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const email = String(form.get('email') ?? '').trim();
  const password = String(form.get('password') ?? '');
  const organizationName = String(form.get('organizationName') ?? '').trim();
  // Validation (password length, email shape, duplicates) is the API's; we only relay its message.
  const result = await postGraphQL(context, SIGNUP_MUTATION, { email, password, organizationName });
  if (!result.ok) {
    return data(
      { error: result.error.message, email, organizationName },
      { status: result.error.code === 'UNAVAILABLE' ? 503 : 400 },
    );
  }
  const { token, checkEmail } = result.data.signup;
  // With email the answer is the same for every address (decision 066): the link in the mail goes on.
  if (checkEmail || !token) return { error: null, checkEmail: true, email, organizationName };
  const cookie = await createSessionCookie(request, context, token);
  // A new organization has no projects yet, so creating one is the only useful next step.
  return redirect('/projects/new', { headers: { 'Set-Cookie': cookie } });
}

export default function SignupPage() {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  if (actionData && 'checkEmail' in actionData) {
    return (
      <main className="page page-narrow">
        <h1 className="brand-heading">Check your email</h1>
        <div className="card" role="status">
          <p>
            We sent an email to <strong className="break">{actionData.email}</strong>. Open the link in it to confirm
            the address and create your organization; it works for 24 hours.
          </p>
          <p className="muted">Nothing arrived? Check the spam folder, or sign in and ask for a new link.</p>
        </div>
        <p className="aside">
          <Link to="/login">Sign in</Link>
        </p>
      </main>
    );
  }
  return (
    <main className="page page-narrow">
      <h1 className="brand-heading">Create your Tracker account</h1>
      <Form method="post" className="card form">
        <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={actionData?.email} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          hint="At least 8 characters."
        />
        <Field
          label="Organization name"
          name="organizationName"
          type="text"
          autoComplete="organization"
          required
          hint="Your company or team; you can add projects to it next."
          defaultValue={actionData?.organizationName}
        />
        <FormError message={actionData?.error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Creating account…' : 'Create account'}
        </button>
      </Form>
      <p className="aside">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </main>
  );
}
