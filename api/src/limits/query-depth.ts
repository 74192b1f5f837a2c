import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * How deeply the named operation nests fields: `{ viewer { id } }` is 2. Fragments count where
 * they are spread; a fragment spread twice along one path (a cycle, which validation has
 * already refused) is not followed again. Introspection fields (`__schema`, `__type`) are left
 * out: graphql-js's MaxIntrospectionDepthRule bounds those, and GraphiQL's introspection
 * query nests `ofType` deeper than any data query should.
 */
export function queryDepth(document: DocumentNode, operationName?: string | null): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const operation = document.definitions.find(
    (d) => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) return 0;

  const depthOf = (set: SelectionSetNode, seen: ReadonlySet<string>): number => {
    let deepest = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value.startsWith('__')) continue;
        deepest = Math.max(deepest, 1 + (s.selectionSet ? depthOf(s.selectionSet, seen) : 0));
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, depthOf(s.selectionSet, seen));
      } else {
        const name = s.name.value;
        const fragment = fragments.get(name);
        if (!fragment || seen.has(name)) continue;
        deepest = Math.max(deepest, depthOf(fragment.selectionSet, new Set([...seen, name])));
      }
    }
    return deepest;
  };
  return depthOf(operation.selectionSet, new Set());
}
