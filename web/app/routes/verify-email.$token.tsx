import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { FormError } from '../components/field';
import { graphql } from '../graphql';
import { mutateApi } from '../lib/graphql.server';
import { findSessionToken } from '../lib/session.server';
import { visibleText } from '../lib/visible-text';

// The page behind the link a sign-up with email sends (<publicUrl>/verify-email/<token>,
// decision 066). Opening it changes nothing: mail scanners fetch links, so the confirmation waits
// for the button (a POST). Only the account that signed up may confirm, so a signed-out browser
// is sent to sign in first and comes back here: the owner of an address that someone else
// registered cannot confirm that account by clicking (they take it over with a password reset).

const CONFIRM_EMAIL_ADDRESS = graphql(`
  mutation ConfirmEmailAddress($token: String!) {
    confirmEmailAddress(token: $token) {
      email
      organizationSlug
    }
  }
`);

export const meta: MetaFunction = () => [{ title: 'Confirm your email address · Tracker' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  return { signedIn: (await findSessionToken(request, context)) !== null };
}

export async function action(args: ActionFunctionArgs) {
  const r = await mutateApi(args, CONFIRM_EMAIL_ADDRESS, { token: args.params.token ?? '' });
  if (!r.ok)
    return data({ error: r.error.message, email: null }, { status: r.error.code === 'RATE_LIMITED' ? 429 : 400 });
  return { error: null, email: r.data.confirmEmailAddress.email };
}

export default function VerifyEmailPage() {
  const result = useActionData<typeof action>();
  const { signedIn } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
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
            <Link to="/">Open Tracker</Link>
          </p>
        </div>
      ) : !signedIn ? (
        <div className="card">
          <p>Sign in with the address and password of the account you created, then confirm it here.</p>
          <p>
            <Link className="button button-primary" to={`/login?${new URLSearchParams({ redirectTo: pathname })}`}>
              Sign in to confirm
            </Link>
          </p>
          <p className="muted">
            Did not sign up? Ignore the email: the account stays unconfirmed, in no organization, and a password reset
            from the sign-in page makes it yours.
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
