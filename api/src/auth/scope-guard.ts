import { AppError, hasScope } from '@tracker/core';
import type { MiddlewareFn } from 'type-graphql';
import type { Context } from '../context';
import { INSTANCE_ADMIN_FIELDS, requiredScope, SESSION_ONLY_MUTATIONS } from './scope-policy';

/**
 * The single place API-token scopes are enforced: a global type-graphql middleware, so every
 * root Query and Mutation field is covered, including ones added later in any module
 * (scope-policy.ts says which scope each needs). Signed-out calls pass through: resolvers
 * answer UNAUTHENTICATED themselves; sessions have every scope.
 */
export const scopeGuard: MiddlewareFn<Context> = ({ context, info }, next) => {
  // Only root fields: nested fields belong to an operation that was already allowed.
  if (info.path.prev !== undefined) return next();
  const principal = context.principal;
  if (!principal || principal.apiTokenId === null) return next();
  const operation = info.operation.operation;
  if (operation === 'subscription') throw new AppError('FORBIDDEN', 'Subscriptions are not available to API tokens');
  const field = info.fieldName;
  if ((operation === 'mutation' && SESSION_ONLY_MUTATIONS.has(field)) || INSTANCE_ADMIN_FIELDS.has(field)) {
    throw new AppError('FORBIDDEN', `${field} needs a signed-in session: API tokens cannot run it`);
  }
  const needed = requiredScope(operation, field);
  if (!hasScope(principal.scopes, needed)) {
    throw new AppError(
      'FORBIDDEN',
      `This API token has the scope ${principal.scopes.join(', ')}: ${field} needs ${needed}`,
    );
  }
  return next();
};
