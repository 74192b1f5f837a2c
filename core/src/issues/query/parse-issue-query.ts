import { AppError } from '../../errors';
import { parseClientTime } from '../../time/parse-client-time';

/** Longer query strings are refused before any parsing: a search box, not a program. */
export const MAX_QUERY_CHARS = 1000;
/** Each term is one more condition on the statement; 20 covers any search a person types. */
export const MAX_QUERY_TERMS = 20;
/** Tag values are cut to 200 characters at ingest, so a longer value cannot match anything. */
export const MAX_QUERY_VALUE_CHARS = 200;
/** Tag keys are 1 to 32 characters at ingest (`limitTags`). */
export const MAX_TAG_KEY_CHARS = 32;

/** The keys the language knows; any other `key:value` is an event tag. */
export const QUERY_KEYS = [
  'is',
  'level',
  'release',
  'environment',
  'assigned',
  'user.email',
  'user.id',
  'message',
  'type',
  'first-seen',
  'last-seen',
  'times-seen',
] as const;
export type QueryKey = (typeof QUERY_KEYS)[number];

export const IS_VALUES = ['unresolved', 'resolved', 'snoozed', 'regressed'] as const;
export const LEVEL_VALUES = ['fatal', 'error', 'warning', 'info'] as const;

export type Comparison = '>' | '>=' | '<' | '<=' | '=';

/** Where a term starts in the query (1-based character) and its text, for error messages. */
interface TermSource {
  position: number;
  raw: string;
  negated: boolean;
}

export type QueryTerm = TermSource &
  (
    | { kind: 'text'; value: string }
    | { kind: 'is'; value: (typeof IS_VALUES)[number] }
    | { kind: 'level'; value: (typeof LEVEL_VALUES)[number] }
    | { kind: 'release' | 'environment' | 'message' | 'type' | 'user.id' | 'user.email'; value: string }
    | { kind: 'assigned'; value: { me: true } | { none: true } | { email: string } }
    | { kind: 'tag'; key: string; value: string }
    | { kind: 'first-seen' | 'last-seen'; time: TimeBound }
    | { kind: 'times-seen'; op: Comparison; count: number }
  );

/**
 * A time bound: `ago` (milliseconds before now, resolved against the caller's clock when the
 * statement is built, decision 021) or an absolute time. `after` true: the time is at or after
 * the bound ("seen in the last 24 hours").
 */
export type TimeBound = { after: boolean; inclusive: boolean } & ({ agoMs: number } | { at: Date });

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
/** Relative times go back at most ten years: further is a typo, and keeps dates in range. */
const MAX_AGO_MS = 3650 * 86_400_000;

/**
 * Reads the issue search language (docs/api.md, "Searching issues") into terms. Pure: no
 * database, no clock. Refuses with BAD_USER_INPUT, naming the term and where it starts, for
 * anything it cannot read, so a typo never silently widens or narrows a search.
 *
 * Whitespace separates terms; a term is `key:value`, `!key:value` (negation), `key:"quoted
 * value"`, or free text (a word or a "quoted phrase", negated with `!` too). Inside quotes `\"`
 * and `\\` escape. The scan is one pass over at most MAX_QUERY_CHARS characters, no regular
 * expression over the whole input, so hostile input costs linear time.
 */
export function parseIssueQuery(query: string): QueryTerm[] {
  if (query.length > MAX_QUERY_CHARS) {
    throw queryError(`The search is too long: at most ${MAX_QUERY_CHARS} characters.`);
  }
  const terms: QueryTerm[] = [];
  let i = 0;
  const n = query.length;
  while (i < n) {
    if (isSpace(query[i])) {
      i++;
      continue;
    }
    const start = i;
    const negated = query[i] === '!';
    if (negated) i++;
    if (i >= n || isSpace(query[i])) {
      throw queryError(`Nothing follows "!" at character ${start + 1}: write !key:value or !word.`);
    }
    let key: string | null = null;
    let value: string;
    let quoted = false;
    if (query[i] === '"') {
      [value, i] = readQuoted(query, i);
      quoted = true;
    } else {
      const wordStart = i;
      while (i < n && !isSpace(query[i]) && query[i] !== ':') i++;
      if (i < n && query[i] === ':') {
        key = query.slice(wordStart, i);
        i++; // the colon
        if (i < n && query[i] === '"') {
          [value, i] = readQuoted(query, i);
          quoted = true;
        } else {
          const valueStart = i;
          while (i < n && !isSpace(query[i])) i++;
          value = query.slice(valueStart, i);
        }
      } else {
        value = query.slice(wordStart, i);
      }
    }
    const source: TermSource = { position: start + 1, raw: query.slice(start, i), negated };
    if (terms.length === MAX_QUERY_TERMS) {
      throw queryError(`Too many terms: at most ${MAX_QUERY_TERMS} (the search goes on at character ${start + 1}).`);
    }
    if (key !== null && key.length === 0) {
      throw termError(source, 'a key is missing before ":" (quote the text to search for a colon)');
    }
    if (value.length === 0 && !quoted) {
      throw termError(source, key === null ? 'nothing to search for' : `no value after "${key}:"`);
    }
    if (value.length > MAX_QUERY_VALUE_CHARS) {
      throw termError(source, `the value is longer than ${MAX_QUERY_VALUE_CHARS} characters`);
    }
    terms.push(key === null ? { ...source, kind: 'text', value } : readKeyed(source, key, value));
  }
  return terms;
}

function readKeyed(source: TermSource, key: string, value: string): QueryTerm {
  switch (key) {
    case 'is':
      return { ...source, kind: 'is', value: oneOf(source, key, value, IS_VALUES) };
    case 'level':
      return { ...source, kind: 'level', value: oneOf(source, key, value, LEVEL_VALUES) };
    case 'release':
    case 'environment':
    case 'message':
    case 'type':
    case 'user.id':
      return { ...source, kind: key, value: nonEmpty(source, key, value) };
    case 'user.email':
      return { ...source, kind: key, value: nonEmpty(source, key, value).toLowerCase() };
    case 'assigned': {
      const v = nonEmpty(source, key, value);
      if (v === 'me') return { ...source, kind: 'assigned', value: { me: true } };
      if (v === 'none') return { ...source, kind: 'assigned', value: { none: true } };
      if (!/^[^\s@]+@[^\s@]+$/.test(v)) {
        throw termError(source, "assigned: takes me, none or a member's email address");
      }
      return { ...source, kind: 'assigned', value: { email: v.toLowerCase() } };
    }
    case 'first-seen':
    case 'last-seen':
      return { ...source, kind: key, time: readTime(source, key, value) };
    case 'times-seen':
      return { ...source, kind: key, ...readCount(source, value) };
    default:
      if (key.length > MAX_TAG_KEY_CHARS) {
        throw termError(source, `"${cut(key)}" is not a key: ${validKeysText()}`);
      }
      return { ...source, kind: 'tag', key, value: nonEmpty(source, key, value) };
  }
}

function oneOf<T extends string>(source: TermSource, key: string, value: string, allowed: readonly T[]): T {
  const v = value.toLowerCase();
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw termError(source, `${key}: takes ${allowed.join(', ')}, not "${cut(value)}"`);
}

function nonEmpty(source: TermSource, key: string, value: string): string {
  if (value.trim().length === 0) throw termError(source, `no value after "${key}:"`);
  return value;
}

/**
 * `-24h` (within the last 24 hours), `+7d` (longer ago than 7 days), or a comparison with an
 * ISO 8601 time or date: `>2026-01-01`, `<=2026-01-01T12:00:00Z`. Units: m, h, d, w.
 */
function readTime(source: TermSource, key: string, value: string): TimeBound {
  const relative = /^([-+])(\d{1,6})([mhdw])$/.exec(value);
  if (relative) {
    const agoMs = Number(relative[2]) * UNIT_MS[relative[3]];
    if (agoMs > MAX_AGO_MS) throw termError(source, `${key}: at most ten years back`);
    return { after: relative[1] === '-', inclusive: true, agoMs };
  }
  const cmp = /^(>=|<=|>|<)(.+)$/.exec(value);
  if (cmp) {
    let at: Date;
    try {
      at = parseClientTime(key, cmp[2], { allowDate: true });
    } catch {
      throw termError(source, `${key}: "${cut(cmp[2])}" is not an ISO 8601 date or date-time`);
    }
    return { after: cmp[1].startsWith('>'), inclusive: cmp[1].endsWith('='), at };
  }
  throw termError(
    source,
    `${key}: takes -24h (within the last 24 hours), +7d (longer ago), or >, >=, <, <= with a date such as >2026-01-31`,
  );
}

function readCount(source: TermSource, value: string): { op: Comparison; count: number } {
  const m = /^(>=|<=|>|<)?(\d{1,15})$/.exec(value);
  if (!m)
    throw termError(source, 'times-seen: takes a whole number, optionally after >, >=, < or <= (times-seen:>100)');
  return { op: (m[1] as Comparison | undefined) ?? '=', count: Number(m[2]) };
}

/** Reads `"…"` from `start` (the opening quote); returns the text and the index after it. */
function readQuoted(query: string, start: number): [string, number] {
  let out = '';
  let i = start + 1;
  while (i < query.length) {
    const c = query[i];
    if (c === '\\' && (query[i + 1] === '"' || query[i + 1] === '\\')) {
      out += query[i + 1];
      i += 2;
    } else if (c === '"') {
      return [out, i + 1];
    } else {
      out += c;
      i++;
    }
  }
  throw queryError(`A quote opened at character ${start + 1} is never closed.`);
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0';
}

/** The keys a person can use, for messages. */
export function validKeysText(): string {
  return `use ${QUERY_KEYS.join(', ')}, or the key of a tag this project's events carry (browser.name:Chrome)`;
}

function cut(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** BAD_USER_INPUT naming the term and where it starts. */
export function termError(source: Pick<TermSource, 'position' | 'raw'>, reason: string): AppError {
  return queryError(`"${cut(source.raw)}" at character ${source.position}: ${reason}.`);
}

function queryError(message: string): AppError {
  return new AppError('BAD_USER_INPUT', `Search: ${message}`);
}
