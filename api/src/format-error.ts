import { unwrapResolverError } from '@apollo/server/errors';
import { isAppError } from '@tracker/core';
import type { GraphQLFormattedError } from 'graphql';

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
