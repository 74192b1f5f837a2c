import type { SourceContext, StackFrame } from '../../stacktrace/stack-frame';
import { cutText } from '../normalize';
import { isPlainObject, textOfValue } from './bounded-value';

/** Frames kept per stack: the innermost ones (Sentry's own limit). */
export const MAX_STRUCTURED_FRAMES = 250;
const MAX_FRAME_FILENAME_CHARS = 1_024;
const MAX_FRAME_FUNCTION_CHARS = 512;
/** Source lines kept each side of a frame's line. */
export const MAX_CONTEXT_LINES_EACH_SIDE = 5;
/** A source line is cut to this many UTF-16 units (minified code is one very long line). */
export const MAX_CONTEXT_LINE_CHARS = 200;
/** Local variables kept per frame, each value as text of at most MAX_VAR_CHARS. */
export const MAX_FRAME_VARS = 50;
export const MAX_VAR_CHARS = 500;
const MAX_VAR_NAME_CHARS = 128;

const FRAME_FIELDS: ReadonlySet<string> = new Set([
  'filename',
  'function',
  'lineno',
  'colno',
  'inApp',
  'context',
  'vars',
]);

/**
 * Structured frames (innermost first) as stored: the first MAX_STRUCTURED_FRAMES usable ones,
 * each field bounded. A frame without a text `filename` is dropped; a position that is not a
 * positive integer becomes null. `raw` itself when it was already in this form.
 */
export function limitFrames(raw: readonly unknown[]): StackFrame[] {
  let same = raw.length <= MAX_STRUCTURED_FRAMES;
  const out: StackFrame[] = [];
  for (let i = 0; i < raw.length && out.length < MAX_STRUCTURED_FRAMES; i++) {
    const f = frameOf(raw[i]);
    if (f !== raw[i]) same = false;
    if (f !== null) out.push(f);
  }
  return same ? (raw as StackFrame[]) : out;
}

function frameOf(v: unknown): StackFrame | null {
  if (!isPlainObject(v) || typeof v.filename !== 'string') return null;
  const filename = cutText(v.filename, MAX_FRAME_FILENAME_CHARS);
  const fn = typeof v.function === 'string' ? cutText(v.function, MAX_FRAME_FUNCTION_CHARS) : null;
  const lineno = positionOf(v.lineno);
  const colno = positionOf(v.colno);
  const inApp = v.inApp === true;
  const out: StackFrame = { filename, function: fn, lineno, colno, inApp };
  const context = v.context === undefined ? undefined : sourceContextOf(v.context);
  if (context !== undefined) out.context = context;
  const vars = v.vars === undefined ? undefined : varsOf(v.vars);
  if (vars !== undefined) out.vars = vars;
  let fields = 0;
  for (const key in v) {
    if (!FRAME_FIELDS.has(key)) return out;
    fields++;
  }
  const unchanged =
    filename === v.filename &&
    fn === v.function &&
    lineno === v.lineno &&
    colno === v.colno &&
    inApp === v.inApp &&
    context === v.context &&
    vars === v.vars &&
    fields === Object.keys(out).length;
  return unchanged ? (v as unknown as StackFrame) : out;
}

function positionOf(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : null;
}

/**
 * Source lines as stored (`{pre, line, post}`), the nearest MAX_CONTEXT_LINES_EACH_SIDE each
 * side, lines cut to MAX_CONTEXT_LINE_CHARS; undefined when there is no `line` text. `v` itself
 * when already in this form.
 */
export function sourceContextOf(v: unknown): SourceContext | undefined {
  if (!isPlainObject(v) || typeof v.line !== 'string') return undefined;
  return contextFromParts(v.pre, v.line, v.post, v);
}

/** `{pre, line, post}` from the three parts (Sentry's `pre_context`, `context_line`, `post_context`). */
export function contextFromParts(pre: unknown, line: string, post: unknown, same?: object): SourceContext {
  const p = linesOf(pre, 'last');
  const l = cutText(line, MAX_CONTEXT_LINE_CHARS);
  const q = linesOf(post, 'first');
  if (same !== undefined && isPlainObject(same) && p === same.pre && l === same.line && q === same.post) {
    let n = 0;
    for (const _ in same) n++;
    if (n === 3) return same as unknown as SourceContext;
  }
  return { pre: p, line: l, post: q };
}

function linesOf(v: unknown, keep: 'first' | 'last'): string[] {
  if (!Array.isArray(v)) return [];
  const n = MAX_CONTEXT_LINES_EACH_SIDE;
  const part = v.length <= n ? v : keep === 'last' ? v.slice(v.length - n) : v.slice(0, n);
  let out: string[] | undefined = part === v ? undefined : part.slice();
  for (let i = 0; i < part.length; i++) {
    const s = part[i];
    const line =
      typeof s === 'string' ? cutText(s, MAX_CONTEXT_LINE_CHARS) : (textOfValue(s, MAX_CONTEXT_LINE_CHARS) ?? '');
    if (line !== s) (out ??= part.slice())[i] = line;
  }
  return (out ?? v) as string[];
}

/**
 * Local variables as stored: the first MAX_FRAME_VARS, names cut to 128 units, values as text
 * (non-strings JSON-serialized) cut to MAX_VAR_CHARS; undefined when `v` is not an object or has
 * none. `v` itself when already in this form.
 */
export function varsOf(v: unknown): Record<string, string> | undefined {
  if (!isPlainObject(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length === 0) return undefined;
  let changed = keys.length > MAX_FRAME_VARS;
  const out: Record<string, string> = {};
  const n = Math.min(keys.length, MAX_FRAME_VARS);
  for (let i = 0; i < n; i++) {
    const key = keys[i];
    const k = cutText(key, MAX_VAR_NAME_CHARS);
    const value = v[key];
    const text = textOfValue(value, MAX_VAR_CHARS) ?? 'null';
    if (k !== key || text !== value) changed = true;
    out[k] = text;
  }
  return changed ? out : (v as Record<string, string>);
}
