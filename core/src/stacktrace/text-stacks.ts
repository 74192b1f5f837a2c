import type { StackFrame } from './stack-frame';
import { findOpeningParen } from './frame-location';

/**
 * Stacks that other runtimes print over several lines per frame, as OpenTelemetry SDKs send them
 * in `exception.stacktrace`. Each reader returns frames innermost first, like `parseStack`, and
 * at most `limit` of them.
 */

const PYTHON_HEADER = 'Traceback (most recent call last):';
const PYTHON_FRAME = /^ {2}File "(.*)", line (\d+)(?:, in (.+))?$/;

/** True when `stack` is CPython's `traceback.format_exception` text. */
export function isPythonTraceback(stack: string): boolean {
  return stack.startsWith(PYTHON_HEADER) || stack.includes(`\n${PYTHON_HEADER}`);
}

/**
 * CPython's traceback. A chained one (`__cause__`, `__context__`) prints the causes first and the
 * raised exception last, so its last block is the one read. Python prints the outermost call
 * first; the frames are reversed. The source line CPython printed under a frame becomes its
 * context line (the `^^^` markers of 3.11+ are not source).
 */
export function parsePythonTraceback(stack: string, limit: number): StackFrame[] {
  const lines = stack.slice(stack.lastIndexOf(PYTHON_HEADER) + PYTHON_HEADER.length).split('\n');
  const outermostFirst: StackFrame[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = PYTHON_FRAME.exec(lines[i].replace(/\r$/, ''));
    if (!match) continue;
    const [, filename, line, fn] = match;
    const frame: StackFrame = {
      filename,
      function: fn ?? null,
      lineno: Number(line) || null,
      colno: null,
      inApp: isPythonInApp(filename),
    };
    const source = lines[i + 1]?.replace(/\r$/, '');
    if (source?.startsWith('    ') && !/^\s*[~^]+\s*$/.test(source) && !PYTHON_FRAME.test(source)) {
      frame.context = { pre: [], line: source.trim(), post: [] };
    }
    outermostFirst.push(frame);
  }
  return outermostFirst.slice(-limit).reverse();
}

function isPythonInApp(filename: string): boolean {
  if (filename.startsWith('<')) return false; // <frozen runpy>, <string>
  const path = filename.replace(/\\/g, '/');
  return !(path.includes('/site-packages/') || path.includes('/dist-packages/') || /\/lib\/python\d/.test(path));
}

const GO_GOROUTINE = /^goroutine \d+ \[[^\]]*\]:$/;
const GO_LOCATION = /^\t(.+):(\d+)(?: \+0x[0-9a-f]+)?$/;

/** True when `stack` holds a goroutine dump: `runtime/debug.Stack()` or a panic's print. */
export function isGoStack(stack: string): boolean {
  const at = stack.indexOf('goroutine ');
  if (at === -1 || (at > 0 && stack.charCodeAt(at - 1) !== 10)) return false;
  const end = stack.indexOf('\n', at);
  return GO_GOROUTINE.test(stack.slice(at, end === -1 ? undefined : end));
}

/**
 * The first goroutine of a Go stack dump: pairs of a call line (`pkg.(*T).Method(args)`) and a
 * tab-indented `file:line +0xpc`, innermost first. The `created by` pair names where the
 * goroutine started, not a frame of its stack, and is left out, as are other goroutines.
 */
export function parseGoStack(stack: string, limit: number): StackFrame[] {
  const lines = stack.split('\n');
  let i = lines.findIndex((line) => GO_GOROUTINE.test(line.replace(/\r$/, '')));
  const frames: StackFrame[] = [];
  for (i += 1; i + 1 < lines.length && frames.length < limit; i += 2) {
    const call = lines[i].replace(/\r$/, '');
    const location = GO_LOCATION.exec(lines[i + 1].replace(/\r$/, ''));
    if (call === '' || call.startsWith('created by ') || !location) break;
    const open = call.endsWith(')') ? findOpeningParen(call, call.length - 1) : -1;
    const fn = open > 0 ? call.slice(0, open) : call;
    frames.push({
      filename: location[1],
      function: fn,
      lineno: Number(location[2]) || null,
      colno: null,
      inApp: isGoInApp(fn, location[1]),
    });
  }
  return frames;
}

/**
 * The standard library and module-cache or vendored dependencies are not in-app. The standard
 * library is told by the function's package path, not by GOROOT's location, which differs per
 * install (and a GOPATH checkout also lives under a `go/src/`).
 */
function isGoInApp(fn: string, filename: string): boolean {
  const slash = fn.lastIndexOf('/');
  const dot = fn.indexOf('.', slash + 1);
  const pkg = dot === -1 ? fn : fn.slice(0, dot);
  const root = pkg.split('/', 1)[0];
  if (GO_STD.has(root)) return false;
  const path = filename.replace(/\\/g, '/');
  return !(path.includes('/pkg/mod/') || path.includes('/vendor/'));
}

/** The standard library's top-level package directories (Go 1.19–1.23). */
const GO_STD = new Set(
  (
    'archive bufio builtin bytes cmp compress container context crypto database debug embed encoding errors ' +
    'expvar flag fmt go hash html image index internal io iter log maps math mime net os path plugin reflect ' +
    'regexp runtime slices sort strconv strings structs sync syscall testing text time unicode unique unsafe weak'
  ).split(' '),
);
