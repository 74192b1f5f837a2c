import type { StackFrame } from './stack-frame';
import { parseGeckoLine } from './gecko-frame';
import { parseManagedLine } from './managed-frame';
import { parsePrestoLine } from './presto-frame';
import { parseV8Line } from './v8-frame';
import { isGoStack, isPythonTraceback, parseGoStack, parsePythonTraceback } from './text-stacks';

export { isInAppFilename } from './frame-location';

/** Frames kept per stack, innermost first: the outer end of a deep recursion adds nothing. */
export const MAX_FRAMES = 250;

/**
 * Longer lines are cut before parsing (as Sentry's parser does): real frames are far shorter, and
 * the cut bounds both the work per line and the size of a stored filename. A cut frame keeps its
 * function and the start of its filename but loses line and column.
 */
export const MAX_LINE_CHARS = 1024;

/**
 * Parses `error.stack` as printed by V8 (Chromium, Node, Deno, Electron), Chakra (old Edge, IE),
 * SpiderMonkey (Firefox), JavaScriptCore (Safari), Hermes (React Native), Bun, and Opera 9–12's
 * Presto backtraces (docs/ingest.md lists the formats); and, for stacks that arrive as text
 * (OpenTelemetry's `exception.stacktrace`), CPython tracebacks, Go goroutine dumps, the JVM's
 * `printStackTrace` and .NET's `Exception.ToString()`. Of a chain, the frames read are the
 * reported exception's. JavaScript lines are parsed one by one, so mixed or partly garbled stacks
 * still yield their good frames. Never throws: lines it cannot read (message lines included) are
 * skipped.
 */
export function parseStack(stack: string | null | undefined): StackFrame[] {
  if (typeof stack !== 'string') return [];
  try {
    if (isPythonTraceback(stack)) return parsePythonTraceback(stack, MAX_FRAMES);
    if (isGoStack(stack)) return parseGoStack(stack, MAX_FRAMES);
  } catch {
    // Written not to throw; a bug here must not cost the event, and the line reader may still
    // find frames.
  }
  return parseLines(reportedPart(stack));
}

/**
 * The part of a JVM or .NET stack that belongs to the reported exception. The JVM prints the
 * causes after it (`Caused by: …`); .NET prints the inner exceptions' frames first, each ended by
 * `--- End of inner exception stack trace ---`.
 */
function reportedPart(stack: string): string {
  const inner = stack.lastIndexOf(DOTNET_INNER_END);
  if (inner !== -1) return stack.slice(inner + DOTNET_INNER_END.length);
  const cause = stack.indexOf(JVM_CAUSE);
  return cause === -1 ? stack : stack.slice(0, cause);
}

const DOTNET_INNER_END = '--- End of inner exception stack trace ---';
const JVM_CAUSE = '\nCaused by: ';

function parseLines(stack: string): StackFrame[] {
  const frames: StackFrame[] = [];
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

function parseLineSafely(raw: string): StackFrame | null {
  // The parser is written not to throw; this guard keeps a bug from costing the whole event.
  try {
    const line = raw.trim();
    // Readers in an order where none takes another's lines: `at ` is V8's family, or the JVM's
    // and .NET's when the method touches its parenthesis (`App.run(App.java:3)`); Presto's
    // worded lines start with `Line`, `called` or `Error` and may contain an `@` in their URL,
    // so they go before the `fn@url` reader; that reader takes what is left.
    if (line.startsWith('at ')) {
      const rest = line.slice(3).trim();
      return parseManagedLine(rest) ?? parseV8Line(rest);
    }
    const first = line.charCodeAt(0);
    if (first === 76 /* L */ || first === 99 /* c */ || first === 69 /* E */) {
      const presto = parsePrestoLine(line);
      if (presto) return presto;
    }
    return parseGeckoLine(line);
  } catch {
    return null;
  }
}
