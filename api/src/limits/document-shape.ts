import { Kind, parse, type DocumentNode, type SelectionSetNode } from 'graphql';

/**
 * Bytes of query text a request may send. The dashboard's largest document is 2.2 KB and
 * GraphiQL's introspection query 2 KB; 16 KiB leaves integrations room for pretty-printed
 * queries and comments. A longer query is refused before it is parsed.
 */
export const MAX_QUERY_BYTES = 16_384;
/** Fields (aliases included), fragment spreads and inline fragments in the whole document; the dashboard's largest has 124. */
export const MAX_SELECTIONS = 1_000;
/**
 * Repeats a document may have: a field whose response name (alias, or name) was already
 * selected in the same selection set, inline fragments merged into it. graphql-js's
 * OverlappingFieldsCanBeMergedRule compares every pair of same-named fields, and again every
 * pair below each pair, so repeats multiply level by level: 2,200 copies of
 * `viewer{organizations{id}}` kept it busy for 0.4 s (issue 28), and three copies at each of six
 * levels (1,000 selections) 37 ms. This schema has no unions or interfaces, so a repeat never
 * selects anything new; the dashboard's documents have none.
 */
export const MAX_REPEATED_SELECTIONS = 20;
/** Fragment spreads in the whole document (the rule compares fragments pairwise too); the dashboard uses 3. */
export const MAX_FRAGMENT_SPREADS = 50;

/** Why a query is refused before validation, or null when its shape is within the limits. */
export type DocumentShapeRefusal = { message: string } | null;

/**
 * The checks that keep a hostile document cheap to refuse: its size in bytes, then (on a parse
 * bounded by that size, about 1 ms at 16 KiB) its selections, repeated names and fragment
 * spreads. They run before Apollo validates, because validation is where the time went: a
 * refused document costs its parse, never a validation. A document that does not parse is left
 * to Apollo, which answers GRAPHQL_PARSE_FAILED as before.
 */
export function checkDocumentShape(query: string): DocumentShapeRefusal {
  // Length in UTF-16 units first: cheap, and a string under the limit in units may still be
  // over it in bytes (each unit is at most 3 bytes of UTF-8).
  if (query.length > MAX_QUERY_BYTES || Buffer.byteLength(query, 'utf8') > MAX_QUERY_BYTES) {
    return {
      message: `Query text is ${Buffer.byteLength(query, 'utf8')} bytes; the limit is ${MAX_QUERY_BYTES}: send a shorter document`,
    };
  }
  let document: DocumentNode;
  try {
    document = parse(query, { noLocation: true });
  } catch {
    return null;
  }
  return checkParsedShape(document);
}

function checkParsedShape(document: DocumentNode): DocumentShapeRefusal {
  let selections = 0;
  let spreads = 0;
  let repeats = 0;
  let repeated: string | null = null;

  // One pass over every selection set; `names` is shared with the inline fragments merged into it.
  const walk = (set: SelectionSetNode, names: Map<string, number>): void => {
    for (const s of set.selections) {
      selections += 1;
      if (s.kind === Kind.FIELD) {
        const name = s.alias?.value ?? s.name.value;
        const count = (names.get(name) ?? 0) + 1;
        names.set(name, count);
        if (count > 1) {
          repeats += 1;
          repeated ??= name;
        }
        if (s.selectionSet) walk(s.selectionSet, new Map());
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet, names);
      } else {
        spreads += 1;
      }
    }
  };
  for (const d of document.definitions) {
    if (d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION) walk(d.selectionSet, new Map());
  }

  if (selections > MAX_SELECTIONS) {
    return {
      message: `Query has ${selections} selections (fields, aliases and fragments); the limit is ${MAX_SELECTIONS}: ask for fewer fields`,
    };
  }
  if (repeats > MAX_REPEATED_SELECTIONS) {
    return {
      message: `Query selects the same field again in one selection set ${repeats} times (first "${repeated}"); the limit is ${MAX_REPEATED_SELECTIONS}: select each field once (aliases tell apart the same field with different arguments)`,
    };
  }
  if (spreads > MAX_FRAGMENT_SPREADS) {
    return {
      message: `Query has ${spreads} fragment spreads; the limit is ${MAX_FRAGMENT_SPREADS}: use fewer fragments`,
    };
  }
  return null;
}
