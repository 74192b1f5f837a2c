import type { StackFrame } from './stack-frame';

/** Where a frame points; shared by every engine's line reader. */
export interface Location {
  filename: string;
  lineno: number | null;
  colno: number | null;
}

/** Filenames engines print for code without a file of its own. */
export const BUILTIN_FILENAMES = new Set(['native', 'native code', '<anonymous>', '[native code]']);

export function createFrame(fn: string | null, loc: Location): StackFrame {
  // A literal, not `{ ...loc }`: spreading takes a slow path in V8 and cost most of the
  // parser's time per frame in the worker benchmark.
  return {
    filename: loc.filename,
    function: fn || null,
    lineno: loc.lineno,
    colno: loc.colno,
    inApp: isInAppFilename(loc.filename),
  };
}

/** The in-app rule, exported so grouping and tests share it. */
export function isInAppFilename(filename: string): boolean {
  if (filename === 'native' || filename === 'native code' || filename === '[native code]') {
    return false;
  }
  // Most filenames have no backslash: skip building a copy for them.
  const path = filename.includes('\\') ? filename.replace(/\\/g, '/') : filename;
  // `node:` is Node's and Bun's runtime; `ext:` (Deno 1.31+) and `deno:` (older) are Deno's.
  if (path.startsWith('node:') || path.startsWith('internal/') || path.startsWith('ext:') || path.startsWith('deno:')) {
    return false;
  }
  return !(path.includes('/node_modules/') || path.startsWith('node_modules/'));
}

/** `url:line:col`, `url:line` or `url`; the url itself may contain colons (schemes, ports). */
export function parseLocation(text: string): Location {
  // Index arithmetic instead of slicing the text at every step: this runs for every frame.
  const lastColon = trailingNumberColon(text, text.length);
  const last = lastColon === -1 ? null : toPosition(text.slice(lastColon + 1));
  if (last === null) return { filename: text, lineno: null, colno: null };
  const beforeColon = trailingNumberColon(text, lastColon);
  const before = beforeColon === -1 ? null : toPosition(text.slice(beforeColon + 1, lastColon));
  if (before === null) return { filename: text.slice(0, lastColon), lineno: last, colno: null };
  return { filename: text.slice(0, beforeColon), lineno: before, colno: last };
}

/** The index of the `:` in front of the digits that end `text[0, end)`, or -1 if it does not end so. */
function trailingNumberColon(text: string, end: number): number {
  let i = end;
  while (i > 0 && text.charCodeAt(i - 1) >= 48 && text.charCodeAt(i - 1) <= 57) i--;
  if (i === end || i < 2 || text.charCodeAt(i - 1) !== 58 /* : */) return -1;
  return i - 1;
}

export function toPosition(digits: string): number | null {
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * A data: URI carries the module's source, which can be large or sensitive; keep only its media
 * type. Its line and column point into code we do not store, so they are dropped too.
 */
export function dataUriLocation(uri: string): Location | null {
  if (!uri.startsWith('data:')) return null;
  const comma = uri.indexOf(',');
  const mediaType = uri.slice(5, comma);
  // No comma, or prose after `data:`: not a data: URI after all.
  if (comma === -1 || mediaType.length > 100 || /\s/.test(mediaType)) return null;
  return { filename: `<data:${mediaType}>`, lineno: null, colno: null };
}

export function findOpeningParen(text: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 41 /* ) */) depth++;
    else if (c === 40 /* ( */ && --depth === 0) return i;
  }
  return -1;
}

export function stripPrefix(text: string, prefix: string): string {
  return text.startsWith(prefix) ? text.slice(prefix.length) : text;
}
