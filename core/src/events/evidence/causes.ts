import type { StackFrame } from '../../stacktrace/stack-frame';
import { cutText } from '../normalize';
import { isPlainObject, textOfValue } from './bounded-value';
import { limitFrames } from './frames';

/** Causes kept below the thrown error (Sentry's SDKs default to 5 linked errors). */
export const MAX_CAUSES = 10;
const MAX_CAUSE_TYPE_CHARS = 256;
const MAX_CAUSE_MESSAGE_CHARS = 8_192;
const MAX_CAUSE_STACK_CHARS = 64 * 1024;

/** One error of the chain below the thrown one: `causes[0]` caused it, `causes[1]` caused that… */
export interface Cause {
  type: string;
  message: string;
  /** The stack text as sent (our SDKs); the worker parses it into `frames`. */
  stack?: string;
  /** Structured frames, innermost first: the Sentry endpoints' (queued only), or parsed by the worker. */
  frames?: StackFrame[];
}

/**
 * The causes to store: the first MAX_CAUSES, each bounded; the chain ends at the first entry that
 * is not an object. A missing type becomes `Error`, a message that is not text is serialized.
 * `frames` are kept only when `structured` (the queued form the Sentry endpoints write); our own
 * wire sends a `stack` text. `raw` itself when already in this form.
 */
export function limitCauses(raw: readonly unknown[], structured: boolean): Cause[] {
  const out: Cause[] = [];
  let same = raw.length <= MAX_CAUSES;
  for (let i = 0; i < raw.length && out.length < MAX_CAUSES; i++) {
    const c = causeOf(raw[i], structured);
    if (c === null) {
      same = false;
      break;
    }
    if (c !== raw[i]) same = false;
    out.push(c);
  }
  return same ? (raw as Cause[]) : out;
}

function causeOf(v: unknown, structured: boolean): Cause | null {
  if (!isPlainObject(v)) return null;
  const type = typeof v.type === 'string' && v.type.length > 0 ? cutText(v.type, MAX_CAUSE_TYPE_CHARS) : 'Error';
  const message = textOfValue(v.message, MAX_CAUSE_MESSAGE_CHARS) ?? '';
  const out: Cause = { type, message };
  const stack = typeof v.stack === 'string' ? cutText(v.stack, MAX_CAUSE_STACK_CHARS) : undefined;
  if (stack !== undefined) out.stack = stack;
  const frames = structured && Array.isArray(v.frames) ? limitFrames(v.frames) : undefined;
  if (frames !== undefined) out.frames = frames;
  let fields = 0;
  for (const key in v) {
    if (key !== 'type' && key !== 'message' && key !== 'stack' && !(structured && key === 'frames')) return out;
    fields++;
  }
  const unchanged =
    type === v.type &&
    message === v.message &&
    stack === v.stack &&
    frames === v.frames &&
    fields === Object.keys(out).length;
  return unchanged ? (v as unknown as Cause) : out;
}
