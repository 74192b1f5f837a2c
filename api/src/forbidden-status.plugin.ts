import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { isAppError } from '@tracker/core';

/**
 * A request the access rules refuse as a whole answers HTTP 403, not 200 (issue 31: "a non-admin
 * gets 403 on every admin query and mutation"): when every error is FORBIDDEN and no root field
 * got an answer. The body is GraphQL's as always; a request that got some data back stays 200,
 * since its data is the caller's. NOT_FOUND for another tenant's things is untouched (it must
 * look like a missing one, decision 018).
 */
export function forbiddenStatusPlugin<TContext extends object>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, errors }) {
          if (!errors || errors.length === 0 || response.body.kind !== 'single') return;
          const refused = errors.every((e) => {
            const original = unwrapResolverError(e);
            return isAppError(original) && original.code === 'FORBIDDEN';
          });
          const data = response.body.singleResult.data;
          const answered = data ? Object.values(data).some((v) => v !== null) : false;
          if (refused && !answered) response.http.status = 403;
        },
      };
    },
  };
}
