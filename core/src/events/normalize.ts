import { AppError } from '../errors';

// ES2024, in Node since 20 (package.json engines); the compiler's lib is older.
declare global {
  interface String {
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

/** Objects and arrays nested deeper than this (the body is level 0) become DEPTH_MARKER. */
export const MAX_VALUE_DEPTH = 10;
/** Deeper than this, a body is refused: it cannot be made sense of (issue 15, as Relay does). */
export const MAX_JSON_DEPTH = 1_000;
export const DEPTH_MARKER = '[depth limit]';

/** Escapes in JSON text that decode to what PostgreSQL refuses: a NUL, or a UTF-16 surrogate. */
const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/**
 * False when the JSON text may decode to a string that `normalizeJson` would change (a NUL or a
 * lone surrogate, both only expressible in JSON as `\u` escapes). A true answer is certain; a
 * false one only means "look closer" (`\uD83D\uDE00` is a valid pair, and is flagged too).
 */
export function isPlainJsonText(text: string): boolean {
  // Most texts have no `\u` escape at all: a substring search is about a third of the regex.
  return text.indexOf('\\u') === -1 || !SUSPECT_ESCAPE.test(text);
}

/**
 * A value PostgreSQL can store, from any parsed JSON, the way Sentry's Relay normalizes at its
 * edge instead of refusing: every string (and key) with a NUL or a lone UTF-16 surrogate gets
 * U+FFFD in their place (text and jsonb refuse both); objects and arrays deeper than
 * MAX_VALUE_DEPTH become `"[depth limit]"`. Throws a 400 naming the top-level field for JSON
 * nested deeper than MAX_JSON_DEPTH. Returns `value` itself when nothing needed changing.
 */
export function normalizeJson(value: unknown): unknown {
  return walk(value, 0, '');
}

function walk(value: unknown, depth: number, field: string): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_VALUE_DEPTH) {
    // Cut here, but a body nested absurdly deep is refused rather than stored cut.
    if (nestingBeyond(value, MAX_JSON_DEPTH - depth)) {
      throw new AppError('BAD_USER_INPUT', `${field || 'body'}: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    return DEPTH_MARKER;
  }
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = walk(value[i], depth + 1, field || String(i));
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  const source = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(source)) {
    const k = storableText(key);
    const v = walk(source[key], depth + 1, field || k);
    if (out === undefined && (k !== key || v !== source[key])) {
      out = {};
      for (const before of Object.keys(source)) {
        if (before === key) break;
        out[before] = source[before];
      }
    }
    if (out !== undefined) out[k] = v;
  }
  return out ?? value;
}

/**
 * Whether an object or array at `depth` (the body is 0) holds objects nested deep enough for
 * `normalizeJson` to cut them: what a check for already-normal bodies must refuse.
 */
export function isCutByDepth(value: object, depth: number): boolean {
  return nestingBeyond(value, MAX_VALUE_DEPTH - 1 - depth);
}

/** Whether `value` has more than `levels` levels of objects/arrays below it; iterative. */
function nestingBeyond(value: object, levels: number): boolean {
  let frontier: object[] = [value];
  for (let level = 1; frontier.length > 0; level++) {
    if (level > levels) return true;
    const next: object[] = [];
    for (const node of frontier) {
      for (const child of Object.values(node)) if (child !== null && typeof child === 'object') next.push(child);
    }
    frontier = next;
  }
  return false;
}

/** `s` with NUL and lone surrogates replaced by U+FFFD; `s` itself when it has neither. */
export function storableText(s: string): string {
  if (s.isWellFormed() && !s.includes('\u0000')) return s;
  return s.toWellFormed().replaceAll('\u0000', '\uFFFD');
}

/**
 * `s` cut to `max` UTF-16 units ending in `…`, never between the two halves of a surrogate pair
 * (a lone half is what PostgreSQL refuses).
 */
export function cutText(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${s.slice(0, end)}…`;
}

/** Client timestamps further than this in the past, or ahead of the receive time, are replaced. */
export const MAX_TIMESTAMP_AGE_MS = 30 * 24 * 3600_000;
export const MAX_TIMESTAMP_AHEAD_MS = 60_000;

/**
 * The time to store for an item the client dated `timestamp` and the edge received at
 * `receivedAt`: the client's time when it is a real date within 30 days before and 1 minute
 * after the receive time, else the receive time (`replaced`: the client's value is kept by the
 * caller). A clock set to the year 0000 or 275760 must not fail the insert nor sort first.
 */
export function clampTimestamp(timestamp: string | undefined, receivedAt: Date): { at: Date; replaced: boolean } {
  if (timestamp === undefined) return { at: receivedAt, replaced: false };
  const at = new Date(timestamp);
  const ms = at.getTime();
  const r = receivedAt.getTime();
  if (Number.isNaN(ms) || ms < r - MAX_TIMESTAMP_AGE_MS || ms > r + MAX_TIMESTAMP_AHEAD_MS) {
    return { at: receivedAt, replaced: true };
  }
  return { at, replaced: false };
}
