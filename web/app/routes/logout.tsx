import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { postGraphQL } from '../lib/graphql.server';
import { createClearedSessionCookie, findSessionToken } from '../lib/session.server';
import { graphql } from '../graphql';

const LOGOUT_MUTATION = graphql(`
  mutation Logout {
    logout
  }
`);

// Signing out is a POST only: a GET would let any page sign the user out with an <img>.
export async function loader() {
  return redirect('/');
}

export async function action({ request, context }: ActionFunctionArgs) {
  const token = await findSessionToken(request, context);
  // The cookie is cleared even when the API is down or already forgot the token: the user asked
  // to leave, and a stale token in the cookie is useless anyway.
  if (token) await postGraphQL(context, LOGOUT_MUTATION, {}, token);
  return redirect('/login', { headers: { 'Set-Cookie': await createClearedSessionCookie(request, context) } });
}
