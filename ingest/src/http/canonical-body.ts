import { isCutByDepth, limitBreadcrumbs, limitCauses, limitContextLines, limitFrames, requestOf } from '@tracker/core';
import { Ajv, _, type KeywordCxt, type SchemaObject } from 'ajv';

/**
 * The fast path of ingest validation.
 *
 * The zod schemas in `@tracker/core` stay the one definition of what a body may be: every body
 * they reject is answered with their message, and every body they would change (cut an
 * oversized text, turn a number into a string, lowercase a UUID, drop a `null` or an unknown
 * field) is taken from their output, exactly as before. This module only recognises, with a
 * compiled JSON-schema check (ajv), bodies that are already in *canonical* form: ones the zod
 * schema accepts and returns unchanged. For those, the route skips zod and enqueues the body
 * text as it was received. Each canonical schema must be a subset of its zod schema; the
 * differential test (`ingest/test/canonical-body.test.ts`) checks that over many bodies.
 *
 * Most SDK events are canonical, so the common case costs a JSON-schema check (~0.3 µs for the
 * 2 KB benchmark event) instead of zod's parse plus a `JSON.stringify` of the whole event (~35 µs).
 */

const ajv = new Ajv({ allErrors: false, strict: true });

// zod measures `.max()` in UTF-16 code units (`s.length`); ajv's maxLength counts code points.
// These keywords keep the canonical check exactly on zod's side of the line, and are cheaper.
ajv.addKeyword({
  keyword: 'maxUtf16Length',
  type: 'string',
  schemaType: 'number',
  code(cxt: KeywordCxt) {
    cxt.fail(_`${cxt.data}.length > ${cxt.schema}`);
  },
});
ajv.addKeyword({
  keyword: 'minUtf16Length',
  type: 'string',
  schemaType: 'number',
  code(cxt: KeywordCxt) {
    cxt.fail(_`${cxt.data}.length < ${cxt.schema}`);
  },
});

// `{ depth: n }` on a free-form object at depth n of the body: canonical only when no object
// in it is deep enough for the edge's normalization to cut (`normalizeJson`).
ajv.addKeyword({
  keyword: 'depth',
  type: 'object',
  schemaType: 'number',
  validate: (depth: number, data: object) => !isCutByDepth(data, depth),
});

// The evidence of issue 29 is normalized by hand-written functions that return their input
// itself when it is already in their form (core's events/evidence): that identity is its
// canonical check, `{ normalizedBy: '<name>' }`, so the rule stays written once.
const NORMALIZERS: Record<string, (data: unknown) => boolean> = {
  breadcrumbs: (d) => Array.isArray(d) && limitBreadcrumbs(d).breadcrumbs === d,
  causes: (d) => Array.isArray(d) && limitCauses(d, false) === d,
  structuredCauses: (d) => Array.isArray(d) && limitCauses(d, true) === d,
  contextLines: (d) => Array.isArray(d) && limitContextLines(d) === d,
  frames: (d) => Array.isArray(d) && limitFrames(d) === d,
  request: (d) => requestOf(d) === d,
};
ajv.addKeyword({
  keyword: 'normalizedBy',
  schemaType: 'string',
  validate: (name: string, data: unknown) => NORMALIZERS[name](data),
});

interface ZodDefNode {
  _zod?: {
    def: { checks?: Array<{ _zod: { def: { pattern?: RegExp } } }>; in?: unknown; out?: unknown; innerType?: unknown };
  };
}

/**
 * The regular expression of the string format check (uuid, datetime…) inside a zod field
 * schema, looking through `optional`/`nullable`/pipes, so both sides use the very same pattern.
 */
export function zodPattern(schema: unknown): RegExp {
  const find = (node: unknown): RegExp | undefined => {
    const def = (node as ZodDefNode | undefined)?._zod?.def;
    if (!def) return undefined;
    const own = def.checks?.find((c) => c._zod.def.pattern)?._zod.def.pattern;
    return own ?? find(def.in) ?? find(def.innerType) ?? find(def.out);
  };
  const pattern = find(schema);
  if (!pattern) throw new Error('zod schema has no pattern check');
  return pattern;
}

/** Registers a string format for canonical schemas. */
export function addCanonicalFormat(name: string, validate: (s: string) => boolean): void {
  ajv.addFormat(name, { type: 'string', validate });
}

/** A type guard that is true only for bodies the matching zod schema returns unchanged. */
export function compileCanonicalCheck<T>(schema: SchemaObject): (body: unknown) => body is T {
  const validate = ajv.compile(schema);
  return (body: unknown): body is T => validate(body) === true;
}

/** `{ type: 'string', minUtf16Length, maxUtf16Length }` */
export function str(max: number, min?: number): SchemaObject {
  return min === undefined
    ? { type: 'string', maxUtf16Length: max }
    : { type: 'string', minUtf16Length: min, maxUtf16Length: max };
}

/**
 * The body text with `"<field>":"<value>"` added as its last member, for a value that needs no
 * escaping (a UUID) and a field the body does not have. `text` must be the JSON text of an
 * object with at least one member.
 */
export function withStringField(text: string, field: string, value: string): string {
  const end = text.lastIndexOf('}');
  return `${text.slice(0, end)},"${field}":"${value}"${text.slice(end)}`;
}
