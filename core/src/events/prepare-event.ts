import { computeCulprit, computeGroupingKey, computeTitle } from '../grouping';
import { parseStack } from '../stacktrace';
import type { StackFrame } from '../stacktrace/stack-frame';
import type { Level } from '../entities';
import type { ErrorJob } from './job';

/** Client clocks drift; an event may claim to be at most this far in the future. */
const MAX_CLOCK_SKEW_MS = 60_000;

/** An event ready to persist: parsed, grouped, titled. Pure data, no database. */
export interface PreparedEvent {
  projectId: string;
  eventId: string;
  groupingKey: string;
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
  timestamp: Date;
  receivedAt: Date;
}

export function prepareEvent(job: ErrorJob): PreparedEvent {
  const e = job.event;
  const frames = parseStack(e.stack);
  const receivedAt = new Date(job.receivedAt);
  return {
    projectId: job.projectId,
    eventId: e.eventId,
    groupingKey: computeGroupingKey({ type: e.type, message: e.message, frames, fingerprint: e.fingerprint }),
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
    tags: e.tags ?? {},
    context: e.context ?? null,
    user: e.user ?? null,
    userKey: userKeyOf(e.user),
    sdk: e.sdk ?? null,
    fingerprint: e.fingerprint ?? null,
    timestamp: clampTimestamp(e.timestamp, receivedAt),
    receivedAt,
  };
}

/** Users affected counts distinct `user.id`, or `user.email` when there is no id. */
export function userKeyOf(user: { id?: string; email?: string } | undefined): string | null {
  if (user?.id) return `id:${user.id}`;
  if (user?.email) return `email:${user.email.trim().toLowerCase()}`;
  return null;
}

/** The client's time, unless it claims to be in the future: then the time ingest received it. */
export function clampTimestamp(iso: string | undefined, receivedAt: Date): Date {
  if (!iso) return receivedAt;
  const t = new Date(iso);
  return t.getTime() > receivedAt.getTime() + MAX_CLOCK_SKEW_MS ? receivedAt : t;
}
