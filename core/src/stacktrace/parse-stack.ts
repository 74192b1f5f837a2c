import type { StackFrame } from './stack-frame';

/** Frames kept per stack, innermost first: the outer end of a deep recursion adds nothing. */
export const MAX_FRAMES = 250;

/**
 * Longer lines are cut before parsing (as Sentry's parser does): real frames are far shorter, and
 * the cut bounds both the work per line and the size of a stored filename. A cut frame keeps its
 * function and the start of its filename but loses line and column.
 */
export const MAX_LINE_CHARS = 1024;

/**
 * Parses `error.stack` as printed by V8 (Chromium, Node), Chakra (old Edge), SpiderMonkey (Firefox)
 * and JavaScriptCore (Safari). Lines are parsed one by one, so mixed or partly garbled stacks still
 * yield their good frames. Never throws: lines it cannot read (message lines included) are skipped.
 */
export function parseStack(stack: string | null | undefined): StackFrame[] {
  const frames: StackFrame[] = [];
  if (typeof stack !== 'string') return frames;
  let start = 0;
  while (start < stack.length && frames.length < MAX_FRAMES) {
    let end = stack.indexOf('\n', start);
    if (end === -1) end = stack.length;
    const line = stack.slice(start, Math.min(end, start + MAX_LINE_CHARS));
    start = end + 1;
    const frame = parseLineCached(line);
    if (frame) frames.push(frame);
  }
  return frames;
}

/**
 * The same error comes back again and again, and with it the same lines (only the message line
 * changes): a parsed line is remembered, and each event gets its own copy of the frame. Lines
 * that are not frames (messages, mostly unique) are not kept. Bounded: emptied when full.
 */
function parseLineCached(line: string): StackFrame | null {
  const known = parsedLines.get(line);
  if (known)
    return {
      filename: known.filename,
      function: known.function,
      lineno: known.lineno,
      colno: known.colno,
      inApp: known.inApp,
    };
  const frame = parseLineSafely(line);
  if (frame) {
    if (parsedLines.size >= MAX_CACHED_LINES) parsedLines.clear();
    // Detached copies: a slice of the stack would keep the whole stack (up to 64 KB) alive.
    parsedLines.set(detach(line), {
      filename: detach(frame.filename),
      function: frame.function === null ? null : detach(frame.function),
      lineno: frame.lineno,
      colno: frame.colno,
      inApp: frame.inApp,
    });
  }
  return frame;
}

const MAX_CACHED_LINES = 5_000;
const parsedLines = new Map<string, StackFrame>();

/** A flat copy of `text`, which V8 may otherwise keep as a view into a larger string. */
function detach(text: string): string {
  return (' ' + text).slice(1);
}

/** The in-app rule, exported so grouping and tests share it. */
export function isInAppFilename(filename: string): boolean {
  if (filename === 'native' || filename === 'native code' || filename === '[native code]') {
    return false;
  }
  // Most filenames have no backslash: skip building a copy for them.
  const path = filename.includes('\\') ? filename.replace(/\\/g, '/') : filename;
  if (path.startsWith('node:') || path.startsWith('internal/')) return false;
  return !(path.includes('/node_modules/') || path.startsWith('node_modules/'));
}

function parseLineSafely(raw: string): StackFrame | null {
  // The parser is written not to throw; this guard keeps a bug from costing the whole event.
  try {
    const line = raw.trim();
    if (line.startsWith('at ')) return parseV8Line(line.slice(3).trim());
    return parseGeckoLine(line);
  } catch {
    return null;
  }
}

interface Location {
  filename: string;
  lineno: number | null;
  colno: number | null;
}

function createFrame(fn: string | null, loc: Location): StackFrame {
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

// ---------------------------------------------------------------- V8 and Chakra: `at fn (loc)`

function parseV8Line(rest: string): StackFrame | null {
  const data = rest.indexOf('(data:');
  const dataLoc = data === -1 ? null : dataUriLocation(rest.slice(data + 1));
  if (dataLoc) return createFrame(rest.slice(0, data).trim(), dataLoc);
  if (rest.endsWith(')')) {
    const open = findOpeningParen(rest, rest.length - 1);
    if (open !== -1) return parseV8Call(rest.slice(0, open).trim(), rest.slice(open + 1, -1).trim());
  }
  // `at url:line:col` (anonymous code; Node prefixes awaited ones with `async`). A bare location
  // has no spaces, which keeps message lines that happen to start with "at" out.
  const bare = stripPrefix(rest, 'async ');
  if (!/\s/.test(bare)) {
    const loc = parseLocation(bare);
    if (loc.lineno !== null || BUILTIN_FILENAMES.has(bare)) return createFrame(null, loc);
  }
  // `at fn (url` without its closing paren: a line cut at MAX_LINE_CHARS.
  const open = rest.lastIndexOf(' (');
  return open > 0 ? parseV8Call(rest.slice(0, open).trim(), rest.slice(open + 2).trim()) : null;
}

const BUILTIN_FILENAMES = new Set(['native', 'native code', '<anonymous>', '[native code]']);

function parseV8Call(callee: string, rawLocation: string): StackFrame | null {
  // `?` (webpack runtime) and `<anonymous>` (Node with source maps on) mean "no name", the same
  // as a bare `at url:1:2`; one spelling keeps such frames grouping together.
  let fn: string | null = callee === '?' || callee === '<anonymous>' ? null : callee;
  let location = stripPrefix(stripPrefix(rawLocation, 'address at '), 'async ');
  // Safari extensions printed in V8 style: `at fn@safari-extension:(//id/file.js:1:2)`.
  // (The `endsWith` only spares the regex on every other frame.)
  const scheme = callee.endsWith('-extension:') ? /(?:^|@)(safari(?:-web)?-extension:)$/.exec(callee) : null;
  if (scheme) {
    fn = callee.slice(0, scheme.index) || null;
    location = scheme[1] + location;
  }
  // webpack's ChunkLoadError wraps the failed script: `(error: (/chunk.js))`.
  if (location.startsWith('error: (') && location.endsWith(')')) location = location.slice(8, -1);
  if (location.startsWith('eval at ')) return createFrame(fn, evalOrigin(location));
  // `Promise.all (index 0)`: a position in Promise.all's input, not a source location.
  if (location.startsWith('index ') && /^index \d+$/.test(location))
    return createFrame(fn, { filename: 'native', lineno: null, colno: null });
  const loc = parseLocation(location);
  return isPlausibleLocation(loc) ? createFrame(fn, loc) : null;
}

/**
 * `eval at outer (eval at inner (url:1:2)), <anonymous>:3:4` → url:1:2. Code inside eval has no
 * file of its own, so the frame points at the call that created it, the way Sentry reports it.
 */
function evalOrigin(location: string): Location {
  let rest = location;
  // Each level rescans the text; real code nests eval a few levels deep at most.
  for (let depth = 0; depth < MAX_EVAL_DEPTH && rest.startsWith('eval at '); depth++) {
    const close = rest.lastIndexOf('), ') !== -1 ? rest.lastIndexOf('), ') : rest.lastIndexOf(')');
    const open = close === -1 ? -1 : findOpeningParen(rest, close);
    if (open === -1) break;
    rest = rest.slice(open + 1, close).trim();
  }
  // Unreadable or absurdly deep: fall back to the position inside the eval'd code.
  if (rest.startsWith('eval at ')) return parseLocation(rest.slice(rest.lastIndexOf(', ') + 1).trim());
  return parseLocation(rest);
}

const MAX_EVAL_DEPTH = 16;

function findOpeningParen(text: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 41 /* ) */) depth++;
    else if (c === 40 /* ( */ && --depth === 0) return i;
  }
  return -1;
}

// ------------------------------------------------- SpiderMonkey and JavaScriptCore: `fn@loc`

function parseGeckoLine(line: string): StackFrame | null {
  if (line === '[native code]') return createFrame(null, parseLocation(line));
  const at = line.indexOf('@');
  if (at === -1) {
    // Safari prints anonymous frames as the bare location.
    if (/\s/.test(line)) return null;
    const loc = parseLocation(line);
    return loc.lineno !== null && isGeckoFilename(loc.filename) ? createFrame(null, loc) : null;
  }
  const fn = geckoFunctionName(line.slice(0, at));
  if (fn === undefined) return null;
  const location = line.slice(at + 1);
  const dataLoc = dataUriLocation(location);
  if (dataLoc) return createFrame(fn, dataLoc);
  const evalFrame = /^(\S+) line (\d+) > (eval|Function)\b/.exec(location);
  if (evalFrame) {
    // Firefox: `file.js line 26 > eval line 2 > eval:1:30`; as with V8, report the creating call.
    const loc = { filename: evalFrame[1], lineno: toPosition(evalFrame[2]), colno: null };
    return createFrame(fn ?? lastEvalKind(location), loc);
  }
  if (location === '[native code]') return createFrame(fn, parseLocation(location));
  if (/\s/.test(location)) return null;
  const loc = parseLocation(location);
  return loc.lineno !== null && isGeckoFilename(loc.filename) ? createFrame(fn, loc) : null;
}

/** Null for an anonymous frame, undefined when the text cannot be a function name. */
function geckoFunctionName(raw: string): string | null | undefined {
  // Firefox before 14 printed arguments: `bar(1)@…`, `(null)@…`.
  const paren = raw.indexOf('(');
  const name = (paren === -1 ? raw : raw.slice(0, paren)).trim();
  if (!name) return null;
  // Engine names with a space (`global code`, `get x`) are allowed; other spaces mean prose.
  if (/\s/.test(name) && !/^(?:\S+ code|(?:get|set|async) \S+)$/.test(name)) return undefined;
  return name;
}

function lastEvalKind(location: string): string {
  return location.lastIndexOf('> Function') > location.lastIndexOf('> eval') ? 'Function' : 'eval';
}

/**
 * Firefox and Safari print absolute URLs; also accept absolute paths and React Native bundles.
 * Anything else (`user@example.com:25`) is far more likely a message line.
 */
function isGeckoFilename(filename: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\//i.test(filename) ||
    filename.startsWith('/') ||
    /^[a-z]:[\\/]/i.test(filename) ||
    filename.includes('bundle')
  );
}

// ------------------------------------------------------------------------------ locations

/** `url:line:col`, `url:line` or `url`; the url itself may contain colons (schemes, ports). */
function parseLocation(text: string): Location {
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

function toPosition(digits: string): number | null {
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * Without a line the location must at least look like one: a builtin marker, a URL or a path.
 * This keeps prose such as `at least one item (got 0)` from becoming a frame.
 */
function isPlausibleLocation(loc: Location): boolean {
  const file = loc.filename;
  if (!file) return false;
  if (loc.lineno !== null || BUILTIN_FILENAMES.has(file)) return true;
  return /^(?:[a-z][a-z0-9+.-]*:\S|\.{0,2}\/)/i.test(file);
}

/**
 * A data: URI carries the module's source, which can be large or sensitive; keep only its media
 * type. Its line and column point into code we do not store, so they are dropped too.
 */
function dataUriLocation(uri: string): Location | null {
  if (!uri.startsWith('data:')) return null;
  const comma = uri.indexOf(',');
  const mediaType = uri.slice(5, comma);
  // No comma, or prose after `data:`: not a data: URI after all.
  if (comma === -1 || mediaType.length > 100 || /\s/.test(mediaType)) return null;
  return { filename: `<data:${mediaType}>`, lineno: null, colno: null };
}

function stripPrefix(text: string, prefix: string): string {
  return text.startsWith(prefix) ? text.slice(prefix.length) : text;
}
