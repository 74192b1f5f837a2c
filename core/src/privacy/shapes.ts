// The parts of ingest bodies the scrubber reads: structural, so every body type fits.

export interface FrameLike {
  filename: string;
  function: string | null;
  context?: { readonly pre: readonly string[]; readonly line: string; readonly post: readonly string[] };
  vars?: Record<string, string>;
}

export interface CauseLike {
  message: string;
  stack?: string;
  frames?: FrameLike[];
}

export interface ContextLinesLike {
  preContext: string[];
  contextLine: string;
  postContext: string[];
}

export interface RequestLike {
  url?: string;
  queryString?: string;
  headers?: Record<string, string>;
  data?: unknown;
}

export interface BreadcrumbLike {
  message?: string;
  data?: Record<string, unknown>;
}

export interface EventLike {
  message: string;
  logMessage?: string;
  stack?: string;
  /** Structured frames (events from Sentry's SDKs): scrubbed as the `stack` text is. */
  frames?: FrameLike[];
  context?: Record<string, unknown>;
  user?: Record<string, unknown>;
  tags?: Record<string, string>;
  breadcrumbs?: BreadcrumbLike[];
  causes?: CauseLike[];
  contextLines?: ContextLinesLike[];
  request?: RequestLike;
}

export interface LogLike {
  message: string;
  context?: Record<string, unknown>;
  tags?: Record<string, string>;
}
