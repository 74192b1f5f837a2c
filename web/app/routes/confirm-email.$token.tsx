import { data, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation } from '@remix-run/react';
import { FormError } from '../components/field';
import { CONFIRM_EMAIL_CHANGE } from '../features/account/queries';
import { postGraphQL } from '../lib/graphql.server';
import { visibleText } from '../lib/visible-text';

// The page behind the link changeEmail sends to the new address (<publicUrl>/confirm-email/<token>).
// Opening it changes nothing: mail scanners fetch links, so the change waits for the button (a
// POST). The token is the capability; no sign-in is needed.

export const meta: MetaFunction = () => [{ title: 'Confirm your email · Tracker' }];

export async function action({ context, params }: ActionFunctionArgs) {
  const r = await postGraphQL(context, CONFIRM_EMAIL_CHANGE, { token: params.token ?? '' });
  if (!r.ok)
    return data({ error: r.error.message, email: null }, { status: r.error.code === 'UNAVAILABLE' ? 503 : 400 });
  return { error: null, email: r.data.confirmEmailChange.email };
}

export default function ConfirmEmailPage() {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <main className="page page-narrow" id="main">
      <h1 className="brand-heading">Confirm your new email</h1>
      {result?.email ? (
        <div className="card">
          <p role="status">
            Done: you sign in as <strong className="break">{visibleText(result.email)}</strong> from now on.
          </p>
          <p>
            <Link to="/account">Go to your account</Link>
          </p>
        </div>
      ) : (
        <Form method="post" className="card form">
          <p>Use this address for your Tracker account from now on?</p>
          <FormError message={result?.error} />
          <button type="submit" className="button button-primary" disabled={busy}>
            Confirm the new email
          </button>
        </Form>
      )}
    </main>
  );
}
