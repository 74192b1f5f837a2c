import { computeCulprit, computeGroupingKey, computeTitle } from '../grouping';
import { parseStack } from '../stacktrace';
import type { StackFrame } from '../stacktrace/stack-frame';
import type { Level } from '../entities';
import type { ErrorJob } from './job';
import type { DebugImage } from './debug-images';
import { deriveTags, withDerivedTags } from './derive-tags';
import { clampTimestamp } from './normalize';
import { attachContextLines, type Breadcrumb, type EventRequest, type StoredCause } from './evidence';

/** An event ready to persist: parsed, grouped, titled. Pure data, no database. */
export interface PreparedEvent {
  projectId: string;
  eventId: string;
  groupingKey: string;
  /**
   * The key of the frames as sent, before symbolication regroups them: what the edge can compute
   * from a request, so what a discarded issue's drops are matched on (issue_discard_keys).
   */
  rawGroupingKey: string;
  title: string;
  culprit: string | null;
  type: string;
  message: string;
  level: Level;
  environment: string;
  release: string | null;
  url: string | null;
  handled: boolean | null;
  stack: string | null;
  frames: StackFrame[];
  tags: Record<string, string>;
  context: Record<string, unknown> | null;
  user: Record<string, unknown> | null;
  /** `id:<id>` or `email:<email>`; null when the event names no user. */
  userKey: string | null;
  sdk: { name: string; version: string } | null;
  fingerprint: string[] | null;
  /** The errors that caused this one, nearest first, each with its own frames; null without. */
  causes: StoredCause[] | null;
  /** Oldest first, the newest 100. */
  breadcrumbs: Breadcrumb[] | null;
  request: EventRequest | null;
  /** Bundles with debug IDs (Sentry's `debug_meta`): their maps come before the release's. */
  debugImages: DebugImage[] | null;
  logMessage: string | null;
  timestamp: Date;
  receivedAt: Date;
}

export function prepareEvent(job: ErrorJob): PreparedEvent {
  const e = job.event;
  // Structured frames (Sentry's SDKs) are taken as they are; a stack text is parsed.
  const lines = e.contextLines ?? [];
  const frames: StackFrame[] = attachContextLines(e.frames ?? parseStack(e.stack), lines);
  const causes = (e.causes ?? []).map((c): StoredCause => ({
    type: c.type,
    message: c.message,
    ...(c.stack === undefined ? {} : { stack: c.stack }),
    frames: attachContextLines(c.frames ?? parseStack(c.stack), lines),
  }));
  const receivedAt = new Date(job.receivedAt);
  const time = clampTimestamp(e.timestamp, receivedAt);
  const groupingKey = computeGroupingKey({ type: e.type, message: e.message, frames, fingerprint: e.fingerprint });
  return {
    projectId: job.projectId,
    eventId: e.eventId,
    groupingKey,
    rawGroupingKey: groupingKey,
    title: computeTitle(e.type, e.message),
    culprit: computeCulprit(frames),
    type: e.type,
    message: e.message,
    level: e.level ?? 'error',
    environment: e.environment,
    release: e.release ?? null,
    url: e.url ?? null,
    handled: e.handled ?? null,
    stack: e.stack ?? null,
    frames,
    // Derived here, in the worker, not at the edge: the edge stays cheap, and a job queued by an
    // older edge gets the same tags. Stored with the event's own tags, so breakdowns see them.
    tags: withDerivedTags(e.tags ?? {}, deriveTags(e.context, e.request)),
    context: contextWithMeta(e.context, e.timestamp, time.replaced),
    user: e.user ?? null,
    userKey: userKeyOf(e.user),
    sdk: e.sdk ?? null,
    fingerprint: e.fingerprint ?? null,
    causes: causes.length > 0 ? causes : null,
    breadcrumbs: e.breadcrumbs !== undefined && e.breadcrumbs.length > 0 ? e.breadcrumbs : null,
    request: e.request ?? null,
    debugImages: e.debugImages !== undefined && e.debugImages.length > 0 ? e.debugImages : null,
    logMessage: e.logMessage ?? null,
    timestamp: time.at,
    receivedAt,
  };
}

/** Users affected counts distinct `user.id`, or `user.email` when there is no id. */
export function userKeyOf(user: { id?: string; email?: string } | undefined): string | null {
  if (user?.id) return `id:${user.id}`;
  if (user?.email) return `email:${user.email.trim().toLowerCase()}`;
  return null;
}

/**
 * The context to store: the client's own, plus under `_meta` (Sentry's name for what its edge
 * changed) the client's timestamp when `clampTimestamp` replaced it.
 */
export function contextWithMeta(
  context: Record<string, unknown> | undefined,
  timestamp: string | undefined,
  replaced: boolean,
): Record<string, unknown> | null {
  if (!replaced) return context ?? null;
  const meta = (context?._meta !== null && typeof context?._meta === 'object' ? context._meta : {}) as Record<
    string,
    unknown
  >;
  return {
    ...context,
    _meta: {
      ...meta,
      timestamp: {
        original: timestamp,
        reason: 'more than 30 days before or 1 minute after it was received, or not a date',
      },
    },
  };
}
