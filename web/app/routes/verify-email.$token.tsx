import { data, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation } from '@remix-run/react';
import { FormError } from '../components/field';
import { graphql } from '../graphql';
import { postGraphQL } from '../lib/graphql.server';
import { visibleText } from '../lib/visible-text';

// The page behind the link a sign-up with email sends (<publicUrl>/verify-email/<token>,
// decision 066). Opening it changes nothing: mail scanners fetch links, so the confirmation waits
// for the button (a POST). The token is the capability; no sign-in is needed.

const CONFIRM_EMAIL_ADDRESS = graphql(`
  mutation ConfirmEmailAddress($token: String!) {
    confirmEmailAddress(token: $token) {
      email
      organizationSlug
    }
  }
`);

export const meta: MetaFunction = () => [{ title: 'Confirm your email address · Tracker' }];

export async function action({ context, params }: ActionFunctionArgs) {
  const r = await postGraphQL(context, CONFIRM_EMAIL_ADDRESS, { token: params.token ?? '' });
  if (!r.ok)
    return data({ error: r.error.message, email: null }, { status: r.error.code === 'RATE_LIMITED' ? 429 : 400 });
  return { error: null, email: r.data.confirmEmailAddress.email };
}

export default function VerifyEmailPage() {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <main className="page page-narrow" id="main">
      <h1 className="brand-heading">Confirm your email address</h1>
      {result?.email ? (
        <div className="card">
          <p role="status">
            Confirmed: <strong className="break">{visibleText(result.email)}</strong> is yours, and your organization is
            ready.
          </p>
          <p>
            <Link to="/login">Sign in</Link>
          </p>
        </div>
      ) : (
        <Form method="post" className="card form">
          <p>Confirm that this address belongs to your new Tracker account?</p>
          <FormError message={result?.error} />
          <button type="submit" className="button button-primary" disabled={busy}>
            Confirm my email address
          </button>
        </Form>
      )}
    </main>
  );
}
