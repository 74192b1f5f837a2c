import type { StackFrame } from './stack-frame';
import { createFrame, dataUriLocation, parseLocation, toPosition } from './frame-location';

/**
 * One `fn@location` line: SpiderMonkey (Firefox), JavaScriptCore (Safari, React Native before
 * Hermes) and Opera 11–12's `error.stack`; Safari also prints anonymous frames as the bare
 * location.
 */
export function parseGeckoLine(line: string): StackFrame | null {
  if (line === '[native code]') return createFrame(null, parseLocation(line));
  // `@` also appears inside names (Firefox < 14 printed arguments: `login("a@b.com")@…`; computed
  // names) and inside URLs (npm CDNs: `…/lib@1.2.3/x.js`). Try each `@` from the left and keep
  // the first split whose right side reads as a location: the common line succeeds at once.
  for (let at = line.indexOf('@'); at !== -1; at = line.indexOf('@', at + 1)) {
    const frame = parseGeckoFrame(line.slice(0, at), line.slice(at + 1));
    if (frame) return frame;
  }
  // Safari prints anonymous frames as the bare location (which may itself contain an `@`).
  if (/\s/.test(line)) return null;
  const loc = parseLocation(line);
  return loc.lineno !== null && isGeckoFilename(loc.filename) ? createFrame(null, loc) : null;
}

function parseGeckoFrame(rawName: string, location: string): StackFrame | null {
  const fn = geckoFunctionName(rawName);
  if (fn === undefined) return null;
  const dataLoc = dataUriLocation(location);
  if (dataLoc) return createFrame(fn, dataLoc);
  const evalFrame = /^(\S+) line (\d+) > (eval|Function)\b/.exec(location);
  if (evalFrame) {
    // Firefox: `file.js line 26 > eval line 2 > eval:1:30`; as with V8, report the creating call.
    if (!isGeckoFilename(evalFrame[1])) return null;
    const loc = { filename: evalFrame[1], lineno: toPosition(evalFrame[2]), colno: null };
    return createFrame(fn ?? lastEvalKind(location), loc);
  }
  if (location === '[native code]') return createFrame(fn, parseLocation(location));
  // Code typed into Firefox's console.
  if (location.startsWith('debugger eval code')) {
    const loc = parseLocation(location);
    return loc.filename === 'debugger eval code' ? createFrame(fn, loc) : null;
  }
  if (/\s/.test(location)) return null;
  const loc = parseLocation(location);
  return loc.lineno !== null && isGeckoFilename(loc.filename) ? createFrame(fn, loc) : null;
}

/** Null for an anonymous frame, undefined when the text cannot be a function name. */
function geckoFunctionName(raw: string): string | null | undefined {
  // Opera 11–12: `<anonymous function: run>([arguments not available])`, `<anonymous function>`.
  if (raw.startsWith('<anonymous function')) {
    const opera = /^<anonymous function(?:: ([^>\s]+))?>(?:\(.*\))?$/.exec(raw);
    return opera ? (opera[1] ?? null) : undefined;
  }
  // Firefox before 14 printed arguments: `bar(1)@…`, `(null)@…`.
  const paren = raw.indexOf('(');
  let name = (paren === -1 ? raw : raw.slice(0, paren)).trim();
  // Firefox's async stacks (50+) put the cause in front: `async*fn`, `promise callback*fn`,
  // `setTimeout handler*` (anonymous). The cause says how the frame was reached, not which
  // function ran, so it is dropped (V8's `async fn` differs: V8 prints it as part of the name).
  const star = name.indexOf('*');
  if (star !== -1) name = name.slice(star + 1);
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
    // An `@` before `bundle` means the split was made too early (`a@b@index.bundle`).
    (filename.includes('bundle') && !filename.includes('@'))
  );
}
