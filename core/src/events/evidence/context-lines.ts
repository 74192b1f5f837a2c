import { cutText } from '../normalize';
import { isPlainObject } from './bounded-value';
import { contextFromParts } from './frames';

/** Files' lines sent per event (`contextLines` on the wire). */
export const MAX_CONTEXT_LINE_ENTRIES = 50;
const MAX_FILENAME_CHARS = 1_024;

/** Source lines around one line of one file, as our SDKs send them. */
export interface ContextLines {
  filename: string;
  lineno: number;
  preContext: string[];
  contextLine: string;
  postContext: string[];
}

/**
 * The entries to keep: the first MAX_CONTEXT_LINE_ENTRIES with a text filename, a positive
 * line number and a text `contextLine`; at most 5 lines each side, each cut to 200 units.
 * `raw` itself when already in this form.
 */
export function limitContextLines(raw: readonly unknown[]): ContextLines[] {
  const out: ContextLines[] = [];
  let same = raw.length <= MAX_CONTEXT_LINE_ENTRIES;
  for (let i = 0; i < raw.length && out.length < MAX_CONTEXT_LINE_ENTRIES; i++) {
    const v = raw[i];
    if (
      !isPlainObject(v) ||
      typeof v.filename !== 'string' ||
      typeof v.contextLine !== 'string' ||
      !(typeof v.lineno === 'number' && Number.isSafeInteger(v.lineno) && v.lineno > 0)
    ) {
      same = false;
      continue;
    }
    const context = contextFromParts(v.preContext, v.contextLine, v.postContext);
    const entry: ContextLines = {
      filename: cutText(v.filename, MAX_FILENAME_CHARS),
      lineno: v.lineno,
      preContext: context.pre as string[],
      contextLine: context.line,
      postContext: context.post as string[],
    };
    let n = 0;
    for (const _ in v) n++;
    const unchanged =
      n === 5 &&
      entry.filename === v.filename &&
      entry.preContext === v.preContext &&
      entry.contextLine === v.contextLine &&
      entry.postContext === v.postContext;
    if (!unchanged) same = false;
    out.push(unchanged ? (v as unknown as ContextLines) : entry);
  }
  return same ? (raw as ContextLines[]) : out;
}
