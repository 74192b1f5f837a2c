import { HeaderMap } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { isAppError, type AppError } from '@tracker/core';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';

/**
 * The single place AppError becomes a GraphQL error: its code goes to `extensions.code`.
 * Anything unexpected is logged and reported as INTERNAL_SERVER_ERROR without internals.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (isAppError(original)) {
    return { message: original.message, path: formatted.path, locations: formatted.locations, extensions: { code: original.code } };
  }
  const code = formatted.extensions?.code;
  if (code === 'INTERNAL_SERVER_ERROR' || code === undefined) {
    console.error('graphql: unexpected error', original);
    return { message: 'Internal server error', path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  // Apollo's own: GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT (argument types) …
  return formatted;
}

/**
 * RATE_LIMITED raised before execution (while building the context): Apollo answers a
 * `GraphQLError` thrown there with the status and headers in `extensions.http`, so the client
 * gets HTTP 429 with `Retry-After` and `errors[0].extensions.code = RATE_LIMITED` (plus
 * `retryAfter` in seconds, for clients that do not read headers).
 */
export function rateLimitedError(error: AppError): GraphQLError {
  const retryAfter = error.retryAfter ?? 1;
  return new GraphQLError(error.message, {
    extensions: {
      code: error.code,
      retryAfter,
      http: { status: 429, headers: new HeaderMap([['retry-after', String(retryAfter)]]) },
    },
  });
}
