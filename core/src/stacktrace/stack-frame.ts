/**
 * One frame of a parsed stack trace, innermost first. Field names follow the wire contract
 * and the GraphQL `frames{filename function lineno colno}` selection.
 */
export interface StackFrame {
  /**
   * URL or path as the engine printed it, or the engine's marker for code without a file
   * (`native`, `native code`, `[native code]`, `<anonymous>`). Code run by eval or `new Function`
   * points at the call that created it; a data: URI is shortened to `<data:media/type>`.
   */
  filename: string;
  /**
   * Function name as printed (`Object.d [as add]`, `async run`, `global code`), or null when the
   * engine gives none.
   */
  function: string | null;
  /** 1-based, as engines print it; null when the engine printed no position. */
  lineno: number | null;
  /** 1-based; null when absent (old Firefox and Safari print only a line). */
  colno: number | null;
  /**
   * False for frames we are sure belong to the runtime or a dependency (`node:` internals,
   * `node_modules`, `native`); grouping prefers in-app frames.
   */
  inApp: boolean;
  /**
   * Source lines around `lineno`: from the SDK (Sentry's `pre_context`/`context_line`/
   * `post_context`, our `contextLines`), or from a source map's `sourcesContent` after
   * symbolication (which replaces the SDK's, read from the minified file).
   */
  context?: SourceContext;
  /** Local variables of the frame as the SDK sent them (Sentry's `vars`), values as text. */
  vars?: Record<string, string>;
}

/** Lines of source around a frame's line, at most a few each side. */
export interface SourceContext {
  readonly pre: readonly string[];
  readonly line: string;
  readonly post: readonly string[];
}
