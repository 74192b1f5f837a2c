import type { StackFrame } from './stack-frame';
import type { Location } from './frame-location';
import {
  BUILTIN_FILENAMES,
  createFrame,
  dataUriLocation,
  findOpeningParen,
  parseLocation,
  stripPrefix,
} from './frame-location';

/**
 * One `at …` line (the caller strips `at `): V8 (Chromium, Node, Deno, Electron), Chakra (old
 * Edge, IE 10–11), Hermes (React Native) and Bun, which all print `fn (location)` or a bare
 * location.
 */
export function parseV8Line(rest: string): StackFrame | null {
  const data = rest.indexOf('(data:');
  const dataLoc = data === -1 ? null : dataUriLocation(rest.slice(data + 1));
  if (dataLoc) return createFrame(rest.slice(0, data).trim(), dataLoc);
  if (rest.endsWith(')')) {
    const open = findOpeningParen(rest, rest.length - 1);
    if (open !== -1) return parseV8Call(rest.slice(0, open).trim(), rest.slice(open + 1, -1).trim());
  }
  // `at url:line:col` (anonymous code; Node prefixes awaited ones with `async`). A bare location
  // has no spaces, which keeps message lines that happen to start with "at" out; the one
  // exception is an absolute path with line and column (`at /home/my app/a.js:1:2`, Windows
  // `at C:\My Projects\a.js:1:2`), which prose does not end with.
  const bare = stripPrefix(rest, 'async ');
  if (!/\s/.test(bare)) {
    const loc = parseLocation(bare);
    if (loc.lineno !== null || BUILTIN_FILENAMES.has(bare)) return createFrame(null, loc);
  } else if (ABSOLUTE_PATH.test(bare)) {
    const loc = parseLocation(bare);
    if (loc.colno !== null) return createFrame(null, loc);
  }
  // `at fn (url` without its closing paren: a line cut at MAX_LINE_CHARS.
  const open = rest.lastIndexOf(' (');
  return open > 0 ? parseV8Call(rest.slice(0, open).trim(), rest.slice(open + 2).trim()) : null;
}

/** `/…`, `C:\…` or `C:/…`, `\\server\share\…`. */
const ABSOLUTE_PATH = /^(?:\/|[a-z]:[\\/]|\\\\)/i;

function parseV8Call(callee: string, rawLocation: string): StackFrame | null {
  // `?` (webpack runtime) and `<anonymous>` (Node with source maps on, Bun) mean "no name", the
  // same as a bare `at url:1:2`; one spelling keeps such frames grouping together.
  let fn: string | null = callee === '?' || callee === '<anonymous>' ? null : callee;
  // Hermes prints `address at` for bytecode offsets in a bundle without source positions.
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
  // `Promise.all (index 0)` (also allSettled, any): a position in the input, not a source location.
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
  // Unreadable, absurdly deep, or a creator without a file (code injected through the DevTools
  // protocol prints `eval at evaluate (:370:30)`): fall back to the position inside the eval'd
  // code, `<anonymous>:3:4`.
  if (rest && !rest.startsWith('eval at ') && !rest.startsWith(':')) return parseLocation(rest);
  return parseLocation(location.slice(location.lastIndexOf(', ') + 1).trim());
}

const MAX_EVAL_DEPTH = 16;

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
