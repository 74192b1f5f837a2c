export { attachContextLines } from './attach-context-lines';
export {
  BREADCRUMB_LEVELS,
  DROPPED_BREADCRUMBS_REASON,
  limitBreadcrumbs,
  MAX_BREADCRUMBS,
  timestampOf,
  type Breadcrumb,
  type BreadcrumbLevel,
} from './breadcrumbs';
export { limitCauses, MAX_CAUSES, type Cause } from './causes';
export { limitContextLines, MAX_CONTEXT_LINE_ENTRIES, type ContextLines } from './context-lines';
export {
  limitFrames,
  MAX_CONTEXT_LINE_CHARS,
  MAX_CONTEXT_LINES_EACH_SIDE,
  MAX_FRAME_VARS,
  MAX_VAR_CHARS,
  sourceContextOf,
  varsOf,
} from './frames';
export { requestOf, type EventRequest } from './request';
export { bounded, MAX_DATA_DEPTH, MAX_DATA_MEMBERS, MAX_DATA_TEXT_CHARS } from './bounded-value';

import type { StackFrame } from '../../stacktrace/stack-frame';

/** One error of the stored chain below the thrown one (the `causes` column), nearest first. */
export interface StoredCause {
  type: string;
  message: string;
  /** The stack text as sent, when the SDK sent one (ours); Sentry's SDKs send frames only. */
  stack?: string;
  /** Innermost first, parsed from `stack` or as sent; de-minified like the event's own. */
  frames: StackFrame[];
}
