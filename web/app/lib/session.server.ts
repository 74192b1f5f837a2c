import { createCookieSessionStorage, redirect, type AppLoadContext, type SessionStorage } from '@remix-run/node';

type SessionData = { token: string };

// Only for local runs without a configured secret: anyone who knows it can forge a cookie that
// carries a token of their choosing, which still has to be a valid API token to be of any use.
const DEV_SESSION_SECRET = 'tracker-dev-session-secret-not-for-production';
const SESSION_MAX_AGE_S = 60 * 60 * 24 * 30;

const storages = new Map<string, SessionStorage<SessionData>>();

function getStorage(context: AppLoadContext): SessionStorage<SessionData> {
  const secret = context.sessionSecret || DEV_SESSION_SECRET;
  let storage = storages.get(secret);
  if (!storage) {
    // SameSite=Lax keeps the cookie off cross-site POSTs, which is our CSRF defence for forms.
    storage = createCookieSessionStorage<SessionData>({
      cookie: {
        name: 'tracker_session',
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        maxAge: SESSION_MAX_AGE_S,
        secrets: [secret],
      },
    });
    storages.set(secret, storage);
  }
  return storage;
}

// `secure` is decided per request so the same build works on plain-http localhost and behind TLS;
// the server decides it (load-context.ts), since only it knows which proxies to believe.
function isSecure(request: Request, context: AppLoadContext): boolean {
  return context.secureCookies ?? new URL(request.url).protocol === 'https:';
}

export async function findSessionToken(request: Request, context: AppLoadContext): Promise<string | null> {
  const session = await getStorage(context).getSession(request.headers.get('Cookie'));
  return session.get('token') ?? null;
}

/** The Set-Cookie value that signs the user in with an API token. */
export async function createSessionCookie(request: Request, context: AppLoadContext, token: string): Promise<string> {
  const storage = getStorage(context);
  const session = await storage.getSession();
  session.set('token', token);
  return storage.commitSession(session, { secure: isSecure(request, context) });
}

/** The Set-Cookie value that signs the user out. */
export async function createClearedSessionCookie(request: Request, context: AppLoadContext): Promise<string> {
  const storage = getStorage(context);
  const session = await storage.getSession(request.headers.get('Cookie'));
  return storage.destroySession(session, { secure: isSecure(request, context) });
}

/** A redirect to /login that also drops a stale cookie and remembers where the user was. */
export async function createLoginRedirect(request: Request, context: AppLoadContext): Promise<Response> {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  const target =
    back === '/' || request.method !== 'GET' ? '/login' : `/login?${new URLSearchParams({ redirectTo: back })}`;
  const headers = new Headers();
  if (request.headers.get('Cookie')?.includes('tracker_session=')) {
    headers.append('Set-Cookie', await createClearedSessionCookie(request, context));
  }
  return redirect(target, { headers });
}
