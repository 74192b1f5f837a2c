import { parse, type ParserPlugin } from '@babel/parser';

/**
 * The functions of one original source file, as ranges with the name a reader would call each
 * one: what Sentry's symbolicator calls scope names. Used for a frame whose caller gives no name
 * (the outermost frame of a bundle: an event listener, a callback the runtime calls, an exported
 * function called from another file), where the name at the caller's call site does not exist.
 *
 * Flat arrays, innermost-last within any nesting: start line/column, end line/column (0-based
 * lines and columns, as a source map's segments count them) and the name.
 */
export interface FunctionScopes {
  starts: Int32Array;
  ends: Int32Array;
  /** Each scope's enclosing scope (its index), or -1 at the top level. */
  parents: Int32Array;
  names: Array<string | null>;
}

/**
 * Sources larger than this are not parsed. The parse runs on the worker's thread (in embedded
 * mode, the whole server's): 256 KB takes tens of milliseconds once per source, and application
 * files are smaller; the sources past it are vendor bundles.
 */
export const MAX_SCOPE_SOURCE_CHARS = 256 * 1024;

/** Memory per scope kept: five 32-bit fields and a slot for the (shared) name string. */
export const SCOPE_BYTES = 28;

/**
 * Parses `source` (JavaScript, TypeScript, JSX) with Babel's parser, which is kept current with
 * the language and recovers from errors, rather than a hand-written scanner that would misread
 * template literals, regexes or generics. Null when the source cannot be parsed at all.
 */
export function collectFunctionScopes(path: string, source: string): FunctionScopes | null {
  if (source.length > MAX_SCOPE_SOURCE_CHARS) return null;
  let program: AstNode;
  try {
    program = parse(source, {
      sourceType: 'unambiguous',
      errorRecovery: true,
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      plugins: pluginsFor(path),
    }).program as unknown as AstNode;
  } catch {
    return null;
  }
  const found: Array<{ start: number[]; end: number[]; name: string | null }> = [];
  walk(program, null, null, found);
  // Sorted by start so that, among the ranges holding a position, the last one is the innermost.
  found.sort((a, b) => a.start[0] - b.start[0] || a.start[1] - b.start[1]);
  const starts = new Int32Array(found.length * 2);
  const ends = new Int32Array(found.length * 2);
  const parents = new Int32Array(found.length);
  // Ranges nest, so in start order each one's parent is the nearest open range that holds it.
  const open: number[] = [];
  found.forEach((f, i) => {
    starts.set(f.start, i * 2);
    ends.set(f.end, i * 2);
    while (open.length > 0 && !holds(ends, open[open.length - 1], f.start[0], f.start[1])) open.pop();
    parents[i] = open.length > 0 ? open[open.length - 1] : -1;
    open.push(i);
  });
  return { starts, ends, parents, names: found.map((f) => f.name) };
}

/** The name of the innermost function holding the position (0-based line and column), or null. */
export function enclosingFunctionName(scopes: FunctionScopes, line: number, column: number): string | null {
  const { starts, ends, parents, names } = scopes;
  // The last scope starting at or before the position, then up its parents to one that holds it:
  // a binary search and the nesting depth, where a scan of every function would cost the worker's
  // warm path a file's worth of comparisons per frame.
  let low = 0;
  let high = names.length - 1;
  let i = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const sl = starts[mid * 2];
    if (sl < line || (sl === line && starts[mid * 2 + 1] <= column)) {
      i = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  while (i !== -1 && !holds(ends, i, line, column)) i = parents[i];
  // The innermost function holds the position; an anonymous one (a callback) has no name to give,
  // and its enclosing function's name would be wrong for this frame.
  return i === -1 ? null : names[i];
}

/** Whether scope `i` (known to start at or before the position) ends after it. */
function holds(ends: Int32Array, i: number, line: number, column: number): boolean {
  const el = ends[i * 2];
  return el > line || (el === line && ends[i * 2 + 1] > column);
}

function pluginsFor(path: string): ParserPlugin[] {
  const clean = path.replace(/[?#].*$/, '').toLowerCase();
  // `<T>(x)` is a cast in .ts and an element in .tsx: the extension decides, as TypeScript does.
  if (clean.endsWith('.ts') || clean.endsWith('.mts') || clean.endsWith('.cts')) return ['typescript'];
  if (clean.endsWith('.tsx')) return ['typescript', 'jsx'];
  return ['jsx'];
}

interface AstNode {
  type: string;
  loc?: { start: { line: number; column: number }; end: { line: number; column: number } };
  [key: string]: unknown;
}

const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
]);

function walk(
  node: AstNode,
  parent: AstNode | null,
  className: string | null,
  out: Array<{ start: number[]; end: number[]; name: string | null }>,
): void {
  let innerClass = className;
  if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
    innerClass = identifierName(node.id) ?? (parent ? bindingName(parent) : null);
  }
  if (FUNCTION_TYPES.has(node.type) && node.loc) {
    out.push({
      start: [node.loc.start.line - 1, node.loc.start.column],
      end: [node.loc.end.line - 1, node.loc.end.column],
      name: functionName(node, parent, className),
    });
  }
  for (const key in node) {
    if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments') continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const child of value) if (isNode(child)) walk(child, node, innerClass, out);
    } else if (isNode(value)) {
      walk(value, node, innerClass, out);
    }
  }
}

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';
}

/** `function save()`, `save() {}` in a class (`Cart.save`), `const save = () =>`, `save: function ()`. */
function functionName(node: AstNode, parent: AstNode | null, className: string | null): string | null {
  const own = identifierName(node.id);
  if (own) return own;
  if (node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod' || node.type === 'ObjectMethod') {
    const key = propertyName(node.key);
    if (!key) return null;
    return node.type !== 'ObjectMethod' && className ? `${className}.${key}` : key;
  }
  return parent ? bindingName(parent) : null;
}

/** The name an anonymous function or class gets from where it is bound. */
function bindingName(parent: AstNode): string | null {
  switch (parent.type) {
    case 'VariableDeclarator':
      return identifierName(parent.id);
    case 'AssignmentExpression':
      return memberTail(parent.left as AstNode);
    case 'ObjectProperty':
    case 'ClassProperty':
    case 'ClassPrivateProperty':
      return propertyName(parent.key);
    default:
      return null;
  }
}

function identifierName(node: unknown): string | null {
  return isNode(node) && node.type === 'Identifier' ? (node.name as string) : null;
}

function propertyName(node: unknown): string | null {
  if (!isNode(node)) return null;
  if (node.type === 'Identifier') return node.name as string;
  if (node.type === 'PrivateName') return identifierName(node.id) && `#${identifierName(node.id)}`;
  if (node.type === 'StringLiteral') return node.value as string;
  return null;
}

/** `window.onSave = …` → `onSave`; `exports.handler = …` → `handler`. */
function memberTail(node: AstNode): string | null {
  if (node.type === 'Identifier') return node.name as string;
  if (node.type === 'MemberExpression' && !node.computed) return propertyName(node.property);
  return null;
}
