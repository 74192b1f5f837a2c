import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { Field, FormError } from '../components/field';
import { formatDateTime } from '../lib/format';
import { mutateApi, postGraphQL } from '../lib/graphql.server';
import { projectPath } from '../lib/paths';
import { createSessionCookie, findSessionToken } from '../lib/session.server';
import { visibleText } from '../lib/visible-text';
import { graphql } from '../graphql';

// The page behind an invitation link (<publicUrl>/invitations/<token>, emailed by inviteMember).
// The token in the path is the secret: the Referrer-Policy keeps it from leaving the origin.

const PREVIEW_QUERY = graphql(`
  query InvitationPreview($token: String!) {
    invitation(token: $token) {
      organizationName
      email
      role
      status
      expiresAt
    }
  }
`);
const ACCEPT = graphql(`
  mutation AcceptInvitation($token: String!) {
    acceptInvitation(token: $token) {
      id
      projects {
        id
      }
    }
  }
`);
const SIGNUP_WITH_INVITATION = graphql(`
  mutation SignupWithInvitation($token: String!, $password: String!) {
    signupWithInvitation(token: $token, password: $password) {
      token
    }
  }
`);

const NOT_VALID = { message: 'This invitation link is not valid. Ask for a new one.' };

export const meta: MetaFunction = () => [{ title: 'Invitation · Tracker' }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const result = await postGraphQL(context, PREVIEW_QUERY, {
    token: params.token ?? '',
  });
  if (!result.ok)
    throw data({ message: result.error.message }, { status: result.error.code === 'UNAVAILABLE' ? 503 : 400 });
  if (!result.data.invitation) throw data(NOT_VALID, { status: 404 });
  const signedIn = Boolean(await findSessionToken(request, context));
  return { invitation: result.data.invitation, signedIn };
}

export async function action(args: ActionFunctionArgs) {
  const { request, context, params } = args;
  const token = params.token ?? '';
  const form = await request.formData();
  if (form.get('intent') === 'accept') {
    const result = await mutateApi(args, ACCEPT, {
      token,
    });
    if (!result.ok) return data({ error: result.error.message }, { status: 400 });
    const first = result.data.acceptInvitation.projects[0];
    return redirect(first ? projectPath(first.id, 'issues') : '/');
  }
  const password = String(form.get('password') ?? '');
  const result = await postGraphQL(context, SIGNUP_WITH_INVITATION, {
    token,
    password,
  });
  if (!result.ok) return data({ error: result.error.message }, { status: 400 });
  const cookie = await createSessionCookie(request, context, result.data.signupWithInvitation.token);
  return redirect('/', { headers: { 'Set-Cookie': cookie } });
}

const STATUS_MESSAGE = {
  ACCEPTED: 'This invitation has already been used.',
  REVOKED: 'This invitation was revoked.',
  EXPIRED: 'This invitation has expired.',
} as const;

export default function InvitationPage() {
  const { invitation, signedIn } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const here = useLocation().pathname;
  return (
    <main className="page page-narrow">
      <h1 className="brand-heading">Join {visibleText(invitation.organizationName)}</h1>
      <div className="card form">
        <p>
          <strong>{visibleText(invitation.email)}</strong> is invited as {invitation.role.toLowerCase()}. The link works
          once, until {formatDateTime(invitation.expiresAt)}.
        </p>
        {invitation.status !== 'PENDING' ? (
          <p className="form-error" role="alert">
            {STATUS_MESSAGE[invitation.status]} Ask an admin of the organization for a new one.
          </p>
        ) : signedIn ? (
          <Form method="post">
            <p className="muted">You are signed in; your account's email must be the invited one.</p>
            <button type="submit" name="intent" value="accept" className="button button-primary" disabled={busy}>
              Accept invitation
            </button>
          </Form>
        ) : (
          <Form method="post" className="form">
            <Field
              label="Choose a password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
            />
            <button type="submit" name="intent" value="signup" className="button button-primary" disabled={busy}>
              Create account and join
            </button>
          </Form>
        )}
        <FormError message={actionData?.error} />
      </div>
      {!signedIn && invitation.status === 'PENDING' && (
        <p className="aside">
          Already have an account?{' '}
          <Link to={here ? `/login?${new URLSearchParams({ redirectTo: here })}` : '/login'}>Sign in first</Link>, then
          open the link again.
        </p>
      )}
    </main>
  );
}
