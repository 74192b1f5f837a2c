import type { ApolloServerPlugin } from '@apollo/server';
import { storableText } from '@tracker/core';
import { Kind, visit, type DocumentNode } from 'graphql';

/**
 * Mends every string an operation brings (its variables and the string literals of its
 * document) into one PostgreSQL can store: a NUL or a lone UTF-16 surrogate becomes U+FFFD, as
 * at the ingest edge (issue 15). Without it a project or alert rule named with a NUL passes
 * validation and then fails its INSERT with a 500.
 *
 * In `didResolveOperation`: after parsing and validation, before the variables are coerced and
 * the resolvers run. Literals are mended in place: graphql-js's AST nodes are plain objects,
 * and a document Apollo keeps in its cache is then kept mended.
 */
export function storableInputPlugin<TContext extends object>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          if (request.variables) request.variables = mend(request.variables) as typeof request.variables;
          mendLiterals(document);
        },
      };
    },
  };
}

function mend(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(mend);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[storableText(k)] = mend(v);
    return out;
  }
  return value;
}

function mendLiterals(document: DocumentNode): void {
  visit(document, {
    [Kind.STRING](node) {
      const mended = storableText(node.value);
      if (mended !== node.value) (node as { value: string }).value = mended;
    },
  });
}
