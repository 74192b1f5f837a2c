import type { StackFrame } from '../../stacktrace/stack-frame';
import type { ContextLines } from './context-lines';

/**
 * `frames` with the source lines our SDKs send beside the stack (`contextLines`) put on each frame
 * whose file and line they name; frames that already have lines, or match none, are kept as
 * they are. Matching is on the frame as parsed, before symbolication, which names the same file
 * the SDK read: a source map that matches later replaces these lines with its own.
 */
export function attachContextLines(frames: StackFrame[], entries: readonly ContextLines[]): StackFrame[] {
  if (entries.length === 0 || frames.length === 0) return frames;
  const byPlace = new Map<string, ContextLines>();
  for (const c of entries) byPlace.set(`${c.lineno}\u0000${c.filename}`, c);
  let out: StackFrame[] | undefined;
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i];
    if (f.context !== undefined || f.lineno === null) continue;
    const c = byPlace.get(`${f.lineno}\u0000${f.filename}`);
    if (c === undefined) continue;
    (out ??= frames.slice())[i] = { ...f, context: { pre: c.preContext, line: c.contextLine, post: c.postContext } };
  }
  return out ?? frames;
}
