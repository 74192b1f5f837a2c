import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  isListType,
  isNonNullType,
  type DocumentNode,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import {
  fieldExtensionsEstimator,
  getComplexity,
  simpleEstimator,
  type ComplexityEstimator,
} from 'graphql-query-complexity';
import { queryDepth } from './query-depth';

/** Deepest field nesting an operation may have (leaves count: `{ viewer { id } }` is 2); the dashboard's deepest query is 4. */
export const MAX_QUERY_DEPTH = 10;
/**
 * Estimated cost ceiling (see `listEstimator`). Measured: a 100-issue page with every relation
 * (latest event's frames with minified originals and source context, releases, feedback) costs
 * 21,301; a 100-row logs page 1,201. Raised from 25,000 when issues gained `suspectCommits` and
 * releases `commits` (decision 043): every field of a 10-issue list, two levels deep (what
 * api/test/access-walk.test.ts selects), then cost 25,631.
 */
export const MAX_QUERY_COST = 30_000;
/** Lexical tokens a query document may have (GraphiQL's introspection query is ~1,000). */
export const MAX_QUERY_TOKENS = 20_000;
/** What a list without a `first` argument is assumed to hold, for the estimate. */
export const ASSUMED_LIST_SIZE = 10;

const isList = (type: GraphQLOutputType): boolean => (isNonNullType(type) ? isList(type.ofType) : isListType(type));

/**
 * Each field costs 1, plus what it selects times how many rows it can return: `first` when
 * the field takes it (connections, `releases`, `vitalsByUrl`, …), ASSUMED_LIST_SIZE for other
 * lists. A connection's `nodes` and `edges` are not multiplied again; its `pageInfo` and
 * `totalCount` are (a small over-count, on the safe side).
 */
const listEstimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  // Introspection answers from the schema, not the database; its depth is bounded by
  // graphql-js's MaxIntrospectionDepthRule (and it can be switched off).
  if (field.name.startsWith('__')) return 0;
  // A connection's lists hold the `first` rows its field was already multiplied by.
  if (type.name.endsWith('Connection') && (field.name === 'nodes' || field.name === 'edges'))
    return 1 + childComplexity;
  if (typeof args.first === 'number') return 1 + childComplexity * Math.max(1, args.first);
  if (isList(field.type)) return 1 + childComplexity * ASSUMED_LIST_SIZE;
  return undefined;
};

/** The estimate `queryLimitsPlugin` compares with MAX_QUERY_COST. */
export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> = {},
  operationName?: string | null,
): number {
  return getComplexity({
    schema,
    query: document,
    operationName: operationName ?? undefined,
    variables,
    estimators: [fieldExtensionsEstimator(), listEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
}

function refuse(message: string): GraphQLError {
  // BAD_USER_INPUT and HTTP 400: the client sent a query it must change; retrying will not help.
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}

/**
 * Depth and cost limits, checked once the operation is parsed, validated and resolved, before
 * anything executes (Apollo's `didResolveOperation`). Aliases and fragments count where they
 * expand, so `a1: issues … a50: issues …` costs fifty pages.
 */
export function queryLimitsPlugin<T extends object>(schema: GraphQLSchema): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operationName }) {
          const depth = queryDepth(document, operationName);
          if (depth > MAX_QUERY_DEPTH) {
            throw refuse(`Query depth ${depth} exceeds the limit of ${MAX_QUERY_DEPTH}: ask for less nesting`);
          }
          let cost: number;
          try {
            cost = queryCost(schema, document, request.variables ?? {}, operationName);
          } catch (error) {
            // The estimate coerces the variables before execution does: an invalid value (an
            // unknown enum, a string for an Int) fails here, and is the client's to fix.
            throw refuse(error instanceof Error ? error.message : 'Invalid variables');
          }
          if (cost > MAX_QUERY_COST) {
            throw refuse(
              `Query cost ${cost} exceeds the limit of ${MAX_QUERY_COST}: ask for fewer rows (first) or fewer fields (lists count as their first, or ${ASSUMED_LIST_SIZE})`,
            );
          }
        },
      };
    },
  };
}
