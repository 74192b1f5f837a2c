import * as crypto from 'node:crypto';
import { BUILTIN_FILENAMES, isInAppFilename } from '../stacktrace/frame-location';
import type { StackFrame } from '../stacktrace/stack-frame';

/** Sentry's convention: this fingerprint entry stands for the key we would have computed. */
export const DEFAULT_FINGERPRINT_ENTRY = '{{ default }}';
/** Innermost frames that identify an error; deeper frames vary with the caller, not the bug. */
export const GROUPING_FRAME_COUNT = 5;
export const MAX_MESSAGE_CHARS = 1000;
export const MAX_TITLE_CHARS = 200;

/**
 * The message patterns below are plain regexes; some backtrack quadratically on long runs of
 * word characters. Scanning at most this much keeps the worst case at a few milliseconds, and
 * the first 2000 characters decide the first 1000 kept anyway.
 */
const MAX_MESSAGE_SCAN_CHARS = 2 * MAX_MESSAGE_CHARS;

// Order matters: wider patterns first, so a UUID or a date is not eaten as hex or numbers.
const MESSAGE_PLACEHOLDERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?\b/gi, '<timestamp>'],
  [/(:\/\/[^\s?#]*)\?[^\s#]*/g, '$1?<query>'],
  [/(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '<email>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  // A letter is required so that a long plain number stays `<num>`, like a short one.
  [/\b(?=\d*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  [/\d+(?:\.\d+)?/g, '<num>'],
];

/**
 * Message text for grouping errors that have no frames: values that vary per occurrence (ids,
 * emails, query strings, times, numbers) become placeholders, so "User 1234 not found" and
 * "User 99 not found" are one issue.
 */
export function normalizeMessage(message: string): string {
  let text = message.replace(/\s+/g, ' ').trim().slice(0, MAX_MESSAGE_SCAN_CHARS);
  for (const [pattern, placeholder] of MESSAGE_PLACEHOLDERS) text = text.replace(pattern, placeholder);
  return text.slice(0, MAX_MESSAGE_CHARS).trim();
}

/**
 * A frame's file as it is stable across deploys: no query or hash, no scheme and host (CDNs and
 * preview domains change), no content hash in the file name, and `/` on Windows too.
 */
export function normalizeFilename(filename: string): string {
  // A pure function of a string that repeats endlessly (a deploy has a few hundred files, and
  // every event names several): remember recent answers. Bounded, so blob: URLs with a fresh
  // UUID each cannot grow it without limit.
  let normalized = normalizedFilenames.get(filename);
  if (normalized === undefined) {
    normalized = normalizeFilenameUncached(filename);
    if (normalizedFilenames.size >= MAX_CACHED_FILENAMES) normalizedFilenames.clear();
    normalizedFilenames.set(detach(filename), detach(normalized));
  }
  return normalized;
}

/**
 * A copy of `text` that does not keep a larger string alive. A filename is a slice of its
 * event's stack (up to 64 KB), and V8 keeps the whole stack for as long as the slice lives:
 * kept in a cache, 2,000 slices could hold over 100 MB. The concatenation is flattened into a
 * new string of the slice's own length.
 */
function detach(text: string): string {
  return (' ' + text).slice(1);
}

const MAX_CACHED_FILENAMES = 2_000;
const normalizedFilenames = new Map<string, string>();

function normalizeFilenameUncached(filename: string): string {
  const path = filename
    .replace(/\\/g, '/')
    .replace(/^blob:/i, '')
    .replace(/[?#].*$/s, '')
    .replace(/^[a-z][a-z0-9+.-]+(?::|%3a)\/\/[^/]*/i, '')
    // blob: URLs end in a fresh UUID on every page load.
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>');
  const slash = path.lastIndexOf('/');
  return path.slice(0, slash + 1) + stripContentHashes(path.slice(slash + 1));
}

/** `main.3f2a1b9c.js` → `main.js`, `chunk-5ZKX7QW2.js` → `chunk.js`; the extension stays. */
function stripContentHashes(basename: string): string {
  const parts = basename.split('.');
  if (parts.length < 2) return basename;
  const extension = parts.pop();
  const kept = parts.filter((part) => !isHexHash(part)).map(stripHashSuffix);
  return [...(kept.length > 0 ? kept : ['<hash>']), extension].join('.');
}

function stripHashSuffix(part: string): string {
  const separator = Math.max(part.lastIndexOf('-'), part.lastIndexOf('~'));
  const at = separator > 0 ? separator : part.lastIndexOf('_');
  if (at <= 0) return part;
  const suffix = part.slice(at + 1);
  return isHexHash(suffix) || isBundlerHash(suffix) ? part.slice(0, at) : part;
}

/**
 * webpack's `[contenthash]` and most others: lowercase hex. A digit is required because words
 * made only of a–f letters exist (`deadbeef`); hashes without a digit are too rare to matter.
 */
function isHexHash(token: string): boolean {
  return token.length >= 8 && /^[0-9a-f]+$/.test(token) && /\d/.test(token);
}

/**
 * esbuild's uppercase base32 (`5ZKX7QW2`) and rollup/Vite's 8-character base64url (`BwSg4_8d`).
 * Only trusted after a `-` separator: as a whole name, `i18nUtils` would look the same.
 */
function isBundlerHash(token: string): boolean {
  if (token.length < 8 || !/\d/.test(token)) return false;
  if (/^[0-9A-Z]+$/.test(token)) return /[A-Z]/.test(token);
  return token.length === 8 && /^[0-9A-Za-z_]+$/.test(token) && /[a-z]/.test(token) && /[A-Z]/.test(token);
}

export interface GroupingInput {
  type: string;
  message: string;
  /** `mapSource`: see SymbolicatedFrame; grouping prefers it to `filename`. */
  frames: Array<StackFrame & { mapSource?: string }>;
  /**
   * The event's own fingerprint; replaces the computed key when non-empty. A string is the
   * one-entry array (the wire accepts both, docs/wire.md), so `"x"` and `["x"]` group together.
   */
  fingerprint?: string | string[] | null;
}

/**
 * The issue an event belongs to, as a hex SHA-256: the event's fingerprint when it sends one;
 * else its type and top frames (in-app ones when there are any); else its type and message.
 */
export function computeGroupingKey(input: GroupingInput): string {
  const defaultKey = computeDefaultKey(input);
  const fingerprint = typeof input.fingerprint === 'string' ? [input.fingerprint] : input.fingerprint;
  if (!Array.isArray(fingerprint) || fingerprint.length === 0) return defaultKey;
  // `['{{ default }}']` asks for exactly the default grouping, so it must not start a new issue.
  if (fingerprint.length === 1 && fingerprint[0] === DEFAULT_FINGERPRINT_ENTRY) return defaultKey;
  const entries = fingerprint.map((entry) => (entry === DEFAULT_FINGERPRINT_ENTRY ? defaultKey : entry));
  return hashParts(['fingerprint', ...entries]);
}

function computeDefaultKey({ type, message, frames }: GroupingInput): string {
  if (frames.length === 0) return hashParts(['message', type, normalizeMessage(message)]);
  const inApp = frames.filter((frame) => frame.inApp);
  const chosen = (inApp.length > 0 ? inApp : frames).slice(0, GROUPING_FRAME_COUNT);
  // Line numbers move with every unrelated edit above them, so a named function is identified by
  // its name alone; anonymous code has nothing else.
  const parts = chosen.map((frame) => {
    const fn = frame.function ?? null;
    // A de-minified frame is grouped on the source as its map names it (`mapSource`), not on the
    // tidied path shown: issues grouped before paths were tidied keep their events.
    const file = frame.mapSource ?? frame.filename;
    return [normalizeFilename(file), fn, fn === null ? frame.lineno : null];
  });
  return hashParts(['frames', type, parts]);
}

/** JSON of an array keeps parts apart: `['ab', 'c']` and `['a', 'bc']` hash differently. */
export function hashParts(parts: unknown[]): string {
  const text = JSON.stringify(parts);
  // The one-shot `crypto.hash` (Node ≥ 20.12) skips building a Hash object: half the cost.
  return typeof crypto.hash === 'function'
    ? crypto.hash('sha256', text, 'hex')
    : crypto.createHash('sha256').update(text).digest('hex');
}

/** `TypeError: x is undefined`: the first line of the message, cut to MAX_TITLE_CHARS. */
export function computeTitle(type: string, message: string): string {
  const newline = message.search(/[\r\n]/);
  const line = (newline === -1 ? message : message.slice(0, newline)).trim();
  const name = type.trim();
  // An issue list needs some text even for `throw new Error()` with its name blanked.
  const title = name && line ? `${name}: ${line}` : name || line || 'Error';
  return truncate(title.replace(/\s+/g, ' '), MAX_TITLE_CHARS);
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--; // do not split a surrogate pair
  return `${text.slice(0, cut)}…`;
}

/**
 * Where the error happened, for the issue list: `fn (file.js)` of the top in-app frame that is
 * the application's own code. A frame of the runtime (`JSON.parse (<anonymous>)`, `node:internal`)
 * counts as in-app for grouping, where changing that would split existing issues, but it says
 * nothing about where the bug is: the culprit skips it for the application frame that called it.
 */
export function computeCulprit(frames: StackFrame[]): string | null {
  const frame =
    frames.find((candidate) => candidate.inApp && !isRuntimeFrame(candidate)) ??
    frames.find((candidate) => candidate.inApp) ??
    frames[0];
  if (!frame) return null;
  const normalized = normalizeFilename(frame.filename);
  // `http://host/` normalizes to `/`; the original says more than an empty tail.
  const file = normalized.slice(normalized.lastIndexOf('/') + 1) || frame.filename;
  return frame.function ? `${frame.function} (${file})` : file;
}

/** Code of the engine or the runtime rather than of the application: no file of its own, or Node's. */
function isRuntimeFrame(frame: StackFrame): boolean {
  // `inApp` may come from a Sentry SDK's own judgement, so the path is checked again here.
  return BUILTIN_FILENAMES.has(frame.filename) || !isInAppFilename(frame.filename);
}
