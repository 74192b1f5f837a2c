import { createCookie, type AppLoadContext } from '@remix-run/node';

// Only for local runs without a configured secret (as session.server.ts).
const DEV_SECRET = 'tracker-dev-session-secret-not-for-production';
/** As long as the API keeps the attempt (core's SSO_ATTEMPT_TTL_MS). */
const STATE_MAX_AGE_S = 10 * 60;

/**
 * The `state` of the sign-in this browser started, in a signed cookie. The callback compares it
 * with the `state` the provider sends back: an answer started in another browser (login CSRF, a
 * forged or replayed link) is refused before the API is asked. SameSite=Lax: the provider's
 * redirect back is a top-level GET, which carries it.
 */
function stateCookie(context: AppLoadContext) {
  return createCookie('tracker_sso_state', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/sso',
    maxAge: STATE_MAX_AGE_S,
    secrets: [context.sessionSecret || DEV_SECRET],
  });
}

const isSecure = (request: Request, context: AppLoadContext) =>
  context.secureCookies ?? new URL(request.url).protocol === 'https:';

export function createStateCookie(request: Request, context: AppLoadContext, state: string): Promise<string> {
  return stateCookie(context).serialize(state, { secure: isSecure(request, context) });
}

export function clearStateCookie(request: Request, context: AppLoadContext): Promise<string> {
  return stateCookie(context).serialize('', { maxAge: 0, secure: isSecure(request, context) });
}

/** The state this browser started with, or null (no cookie, or one whose signature fails). */
export async function readStateCookie(request: Request, context: AppLoadContext): Promise<string | null> {
  const value: unknown = await stateCookie(context).parse(request.headers.get('Cookie'));
  return typeof value === 'string' && value !== '' ? value : null;
}
