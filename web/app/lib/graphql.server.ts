import { data, type AppLoadContext } from '@remix-run/node';
import type { TypedDocumentString } from '../graphql/graphql';
import { createLoginRedirect, findSessionToken } from './session.server';
import { API_UNREACHABLE, describeApiStatus, SERVER_FAILED } from './user-messages';

// The only way the dashboard reaches the rest of Tracker: GraphQL over HTTP to `context.apiUrl`.
// No GraphQL client on purpose: `fetch` keeps the server bundle free of dependencies. Documents
// are written with `graphql()` from app/graphql, generated from api/schema.graphql, so each one
// carries its result and variable types (docs/decisions/019).

export type ApiError = { code: string; message: string };
export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };

type GraphQLResponse<T> = {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
};

type Document<TResult, TVariables> = TypedDocumentString<TResult, TVariables>;
/** A document without variables may be posted without them. */
type VariablesOf<TVariables> =
  TVariables extends Record<string, never> ? [variables?: TVariables] : [variables: TVariables];

const API_TIMEOUT_MS = 10_000;

const HTTP_STATUS_BY_CODE: Record<string, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  PLAN_REQUIRED: 402,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
};

/** One POST to the API. Never throws: transport failures come back as `UNAVAILABLE`. */
export async function postGraphQL<TResult, TVariables>(
  context: AppLoadContext,
  document: Document<TResult, TVariables>,
  variables: TVariables | undefined,
  token?: string | null,
): Promise<ApiResult<TResult>> {
  if (!context.apiUrl) throw new Error('The load context has no apiUrl; @tracker/server must pass one.');
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  // Only the server's own value: nothing of the browser's request is forwarded to the API.
  if (context.signedClientAddress) headers['X-Tracker-Client-Address'] = context.signedClientAddress;
  // Recorded by the audit log; the API believes it only beside a verified client address.
  if (context.signedClientAddress && context.clientUserAgent) {
    headers['X-Tracker-Client-User-Agent'] = context.clientUserAgent.replace(/[^\x20-\x7e]/g, '');
  }
  const query = document.toString();
  const operationName = /^\s*(?:query|mutation)\s+(\w+)/.exec(query)?.[1];

  let response: Response;
  try {
    response = await fetch(context.apiUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables: variables ?? {}, operationName }),
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, error: { code: 'UNAVAILABLE', message: API_UNREACHABLE } };
  }

  let body: GraphQLResponse<TResult>;
  try {
    body = (await response.json()) as GraphQLResponse<TResult>;
  } catch {
    const retryAfter = Number(response.headers.get('retry-after'));
    const message = describeApiStatus(response.status, Number.isFinite(retryAfter) ? retryAfter : null);
    return { ok: false, error: { code: response.status === 429 ? 'RATE_LIMITED' : 'UNAVAILABLE', message } };
  }
  const first = body.errors?.[0];
  if (first) {
    const code = first.extensions?.code ?? 'INTERNAL_SERVER_ERROR';
    if (code === 'RATE_LIMITED' && response.status === 429) {
      // The API's request limit (HTTP 429) is worded for integrations ("GraphQL requests from this
      // token"); a person gets this. A field's own limit (a 200 answer, e.g. testAlertRule's "at
      // most 5 test notifications a minute") already speaks to the person and is kept.
      const retryAfter = Number(response.headers.get('retry-after'));
      return {
        ok: false,
        error: { code, message: describeApiStatus(429, Number.isFinite(retryAfter) ? retryAfter : null) },
      };
    }
    // The API's "Internal server error" names nothing a user can act on.
    return { ok: false, error: { code, message: code === 'INTERNAL_SERVER_ERROR' ? SERVER_FAILED : first.message } };
  }
  if (!body.data) {
    return { ok: false, error: { code: 'INTERNAL_SERVER_ERROR', message: SERVER_FAILED } };
  }
  return { ok: true, data: body.data };
}

type RequestArgs = { request: Request; context: AppLoadContext };

async function postAsSignedInUser<TResult, TVariables>(
  args: RequestArgs,
  document: Document<TResult, TVariables>,
  variables: TVariables | undefined,
) {
  const token = await findSessionToken(args.request, args.context);
  if (!token) throw await createLoginRedirect(args.request, args.context);
  const result = await postGraphQL(args.context, document, variables, token);
  if (!result.ok && result.error.code === 'UNAUTHENTICATED') {
    throw await createLoginRedirect(args.request, args.context);
  }
  return result;
}

/**
 * For loaders. Signed out or an expired token: redirect to /login. Any other error is thrown as a
 * response with a matching status, so the nearest ErrorBoundary shows its message.
 */
export async function queryApi<TResult, TVariables>(
  args: RequestArgs,
  document: Document<TResult, TVariables>,
  ...[variables]: VariablesOf<TVariables>
): Promise<TResult> {
  const result = await postAsSignedInUser(args, document, variables);
  if (!result.ok) throw createErrorResponse(result.error);
  return result.data;
}

/** For actions: like `queryApi`, but API errors come back so the form can show them. */
export async function mutateApi<TResult, TVariables>(
  args: RequestArgs,
  document: Document<TResult, TVariables>,
  ...[variables]: VariablesOf<TVariables>
): Promise<ApiResult<TResult>> {
  return postAsSignedInUser(args, document, variables);
}

export function createErrorResponse(error: ApiError) {
  return data({ message: error.message, code: error.code }, { status: HTTP_STATUS_BY_CODE[error.code] ?? 502 });
}

/**
 * For loaders with optional sections: like `queryApi`, but an API error (typically FORBIDDEN for a
 * plain member) comes back so the page can show that section's reason instead of failing whole.
 */
export const tryQueryApi = mutateApi;
