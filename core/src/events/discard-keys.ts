import { computeGroupingKey } from '../grouping';
import { parseStack } from '../stacktrace';
import type { StackFrame } from '../stacktrace/stack-frame';

/**
 * The key a dropped event is remembered by in `issue_discard_keys`, so the edge can match the
 * next one: its grouping key when symbolication did not change it (the edge computes the same),
 * else its raw (unsymbolicated) key qualified by its release, `<key>@<release>`. Minified names
 * are only stable within one build, so the same raw key in another release may be another bug.
 */
export function discardKeyOf(rawKey: string, groupingKey: string, release: string | null): string {
  return rawKey === groupingKey || release === null ? rawKey : `${rawKey}@${release}`;
}

/** What the edge has of an event: the queued body's fields that grouping reads. */
export interface DiscardCandidate {
  type: string;
  message: string;
  stack?: string | null;
  frames?: StackFrame[] | null;
  fingerprint?: string | string[] | null;
  release?: string | null;
}

/**
 * Whether an event belongs to a discarded issue, by the key the worker's `prepareEvent` computes
 * before symbolication (same frames: the structured ones, else the parsed stack). Only called
 * for projects that discard something; costs a stack parse and a SHA-256 (tens of µs).
 */
export function matchesDiscardKeys(keys: ReadonlySet<string>, event: DiscardCandidate): boolean {
  const frames = event.frames ?? parseStack(event.stack);
  const key = computeGroupingKey({ type: event.type, message: event.message, frames, fingerprint: event.fingerprint });
  if (keys.has(key)) return true;
  return typeof event.release === 'string' && keys.has(`${key}@${event.release}`);
}
