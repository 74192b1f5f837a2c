import type { StackFrame } from './stack-frame';
import { createFrame, toPosition } from './frame-location';

/**
 * Opera 9–12 (Presto) backtraces, which name the position in words. Returns null for any other
 * line, so the caller can go on to the `fn@url` reader. The source line Opera prints under each
 * frame is not a frame and matches nothing here.
 */
export function parsePrestoLine(line: string): StackFrame | null {
  // Opera 9 (`Backtrace:` in error.message) and 10 (error.stacktrace): `Line 4 of inline#1 script
  // in http://x/page.html: In function bar`. The line of an inline script counts from the start
  // of its <script> element, not of the page: kept as printed (the page's source is not ours to
  // fetch), as TraceKit and error-stack-parser do. `eval script` and `function script` name no
  // URL and are skipped.
  if (line.startsWith('Line ')) {
    const match = /^Line (\d+) of (?:linked|inline#\d+) script (?:in )?(\S+?)(?:: In function (\S+))?$/.exec(line);
    if (!match) return null;
    return createFrame(match[3] ?? null, { filename: match[2], lineno: toPosition(match[1]), colno: null });
  }
  // Opera 11–12 error.stacktrace: `called from line 27, column 8 in <anonymous function: run>(ex)
  // in http://x/file.js:` (the first frame says `Error thrown at`, a rethrow `Error initially
  // occurred at`, apply/call `called via Function.prototype.apply() from`).
  const match = STACKTRACE_LINE.exec(line);
  if (!match) return null;
  const rest = match[3];
  // The function and its arguments come first; the URL (which has no spaces) last.
  const split = rest.lastIndexOf(' in ');
  const filename = split === -1 ? rest : rest.slice(split + 4);
  const fn = split === -1 ? null : prestoFunctionName(rest.slice(0, split));
  const column = toPosition(match[2]);
  // Presto counts columns from 0 (an event handler attribute reports `column 0`); ours are 1-based.
  return createFrame(fn, { filename, lineno: toPosition(match[1]), colno: column === null ? null : column + 1 });
}

const STACKTRACE_LINE =
  /^(?:Error thrown at|Error initially occurred at|called from|called via \S+ from) line (\d+), column (\d+) in (.+?):$/;

/** `<anonymous function: run>(ex)` → run, `<anonymous function>(x)` → null, `bar(n)` → bar. */
function prestoFunctionName(call: string): string | null {
  const anonymous = /^<anonymous function(?:: ([^>]+))?>/.exec(call);
  if (anonymous) return anonymous[1] ?? null;
  const paren = call.indexOf('(');
  return (paren === -1 ? call : call.slice(0, paren)).trim() || null;
}
