import type { StackFrame } from './stack-frame';

/**
 * One `at …` line of the JVM's `printStackTrace` or .NET's `Exception.ToString()` (the caller
 * strips `at `). Both print the method directly before its parenthesis, where V8 always puts a
 * space (`fn (url)`); that is how the caller tells them apart.
 *
 * - JVM: `[loader/][module@ver/]pkg.Class.method(File.java:12)`, `(File.java)`, `(Native Method)`,
 *   `(Unknown Source)`.
 * - .NET: `Ns.Class.Method(Type arg) in /src/File.cs:line 12`, or no ` in …` without symbols.
 *
 * The filename is the source file when printed, else the declaring type: grouping needs a stable
 * name, and a type is what the runtime gave.
 */
export function parseManagedLine(rest: string): StackFrame | null {
  const open = rest.indexOf('(');
  if (open <= 0) return null;
  const method = rest.slice(0, open);
  // JavaScript writes `fn (url)`, `fn@url`, and webpack's `fn(webpack:///…)`; the argument test
  // below keeps the last kind out.
  if (/[\s:@]/.test(method)) return null;
  const close = rest.indexOf(')', open);
  if (close === -1) return null;
  const inside = rest.slice(open + 1, close);
  const tail = rest.slice(close + 1);
  if (tail === '' && JVM_WHERE.test(inside)) return jvmFrame(method, inside);
  if (tail !== '' && !tail.startsWith(' in ')) return null;
  if (inside !== '' && !inside.split(', ').every((parameter) => DOTNET_PARAMETER.test(parameter))) return null;
  const symbols = tail === '' ? null : DOTNET_TAIL.exec(tail);
  if (tail !== '' && !symbols) return null;
  return dotnetFrame(method, symbols?.[1] ?? null, symbols?.[2] ?? null);
}

/** `App.java:12`, `App.kt`, `Native Method`, `Unknown Source`: a file name has no path in it. */
const JVM_WHERE = /^(?:Native Method|Unknown Source|[^\s/\\:()<>]+\.[A-Za-z]+(?::\d+)?)$/;
/** `String path`, `Int32& count`, `List\`1 items`, `ref Int32 n` is printed `Int32& n`. */
const DOTNET_PARAMETER = /^[\w.`[\]<>&*]+ @?\w+$/;
const DOTNET_TAIL = /^ in (.+?)(?::line (\d+))?$/;

function jvmFrame(qualified: string, where: string): StackFrame {
  // `java.base/java.io.FileInputStream.open`, `app//com.example.App.run`: the part before the
  // last `/` names a class loader or a module, not the method.
  const slash = qualified.lastIndexOf('/');
  const fn = slash === -1 ? qualified : qualified.slice(slash + 1);
  const colon = where.lastIndexOf(':');
  const line = colon === -1 ? null : positive(where.slice(colon + 1));
  const file = line === null ? where : where.slice(0, colon);
  const known = file !== '' && file !== 'Native Method' && file !== 'Unknown Source';
  return {
    filename: known ? file : declaringType(fn),
    function: fn,
    lineno: line,
    colno: null,
    inApp: file !== 'Native Method' && !hasPrefix(fn, JVM_LIBRARIES),
  };
}

function dotnetFrame(fn: string, file: string | null, line: string | null): StackFrame {
  return {
    filename: file ?? declaringType(fn),
    function: fn,
    lineno: line === null ? null : positive(line),
    colno: null,
    inApp: !hasPrefix(fn, DOTNET_LIBRARIES),
  };
}

/** `pkg.Class.method` → `pkg.Class`. */
function declaringType(fn: string): string {
  const dot = fn.lastIndexOf('.');
  return dot > 0 ? fn.slice(0, dot) : fn;
}

function positive(digits: string): number | null {
  const n = Number(digits);
  return Number.isInteger(n) && n > 0 ? n : null;
}

function hasPrefix(text: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => text.startsWith(prefix));
}

/**
 * The runtime's and the common languages' own packages. Application libraries cannot be told
 * apart from the application by name alone, so they count as in-app.
 */
const JVM_LIBRARIES = [
  'java.',
  'javax.',
  'jdk.',
  'sun.',
  'com.sun.',
  'kotlin.',
  'kotlinx.',
  'scala.',
  'groovy.',
  'android.',
  'androidx.',
  'dalvik.',
];
const DOTNET_LIBRARIES = ['System.', 'Microsoft.', 'Mono.', 'Windows.'];
