import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation } from '@remix-run/react';
import { Field, FormError } from '../components/field';
import { postGraphQL } from '../lib/graphql.server';
import { findSessionToken } from '../lib/session.server';
import { graphql } from '../graphql';

const REQUEST_RESET = graphql(`
  mutation RequestPasswordReset($email: String!) {
    requestPasswordReset(email: $email) {
      emailConfigured
    }
  }
`);

export const meta: MetaFunction = () => [{ title: 'Forgot password · Tracker' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await findSessionToken(request, context)) return redirect('/');
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const email = String(form.get('email') ?? '').trim();
  const result = await postGraphQL(context, REQUEST_RESET, { email });
  if (!result.ok) {
    return data({ error: result.error.message, email, sent: null }, { status: result.error.code === 'UNAVAILABLE' ? 503 : 400 });
  }
  return { error: null, email, sent: result.data.requestPasswordReset.emailConfigured };
}

export default function ForgotPasswordPage() {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <main className="page page-narrow">
      <h1 className="brand-heading">Reset your password</h1>
      {actionData?.sent === true ? (
        <div className="card" role="status">
          <p>
            If an account has the address <strong>{actionData.email}</strong>, an email with a link to choose a new
            password is on its way. The link works once, for one hour; asking again replaces it.
          </p>
        </div>
      ) : actionData?.sent === false ? (
        <div className="card" role="status">
          <p>This Tracker sends no email, so it cannot mail you a link.</p>
          <p>
            Ask the person who runs it to create a reset link for your address with{' '}
            <code>npm run tracker -- user:reset-password {actionData.email || '<email>'}</code> and pass it to you.
          </p>
        </div>
      ) : (
        <Form method="post" className="card form">
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={actionData?.email}
            hint="We send a link to this address if it has an account."
          />
          <FormError message={actionData?.error} />
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Sending…' : 'Send a reset link'}
          </button>
        </Form>
      )}
      <p className="aside">
        <Link to="/login">Back to sign in</Link>
      </p>
    </main>
  );
}
