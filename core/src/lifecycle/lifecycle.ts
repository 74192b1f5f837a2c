import { AppError } from '../errors';
import type { IssueStatus, SnoozeKind } from '../entities/issue.entity';

/**
 * The issue lifecycle (docs/releases-and-lifecycle.md) as pure functions: the worker (events) and the API
 * (resolve, snooze, reopen) both apply these, so the rules live in one place and are tested
 * without a database. Callers hold the issue's row lock while they apply a transition, which
 * is what makes "one transition, one alert" hold under concurrent workers.
 */

/** A release record: one version deployed to one environment. Ordered by `deployedAt` only. */
export interface ReleaseRecord {
  id: string;
  version: string;
  environment: string;
  deployedAt: Date;
}

export interface LifecycleState {
  status: IssueStatus;
  isRegression: boolean;
  resolvedAt: Date | null;
  /** The project's newest release record when the issue was resolved (live: a re-registration moves its deploy time). */
  resolvedIn: ReleaseRecord | null;
  snoozedUntil: Date | null;
  /**
   * What ends the snooze, while snoozed (null otherwise, and for snoozes made before issue 19,
   * which have only `snoozedUntil`). Optional so older callers building a state need not name it.
   */
  snooze?: SnoozeCondition | null;
}

/** One snooze: by a time ("until <date>", "for 24 hours"), by events or by users. */
export interface SnoozeCondition {
  kind: SnoozeKind;
  /** When the issue was snoozed. */
  at: Date;
  /** `minutes`: how long; the end is `snoozedUntil`. */
  minutes?: number | null;
  /** `events`: how many more events, and the issue's event count at which it ends. */
  forEvents?: number | null;
  eventLimit?: number | null;
  /** `users`: how many more distinct users, and the issue's user count at which it ends. */
  forUsers?: number | null;
  userLimit?: number | null;
}

/** Bounds of the snooze options: large enough for any real use, small enough to stay a number. */
export const MAX_SNOOZE_MINUTES = 366 * 24 * 60;
export const MAX_SNOOZE_EVENTS = 1_000_000_000;
export const MAX_SNOOZE_USERS = 10_000_000;

/** What the worker knows about one incoming event when it applies the lifecycle. */
export interface EventFacts {
  /** The time ingest accepted the event: it decides whether a snooze has ended. */
  receivedAt: Date;
  /** The event's `release`, or null. */
  release: string | null;
  /** The release record of the event's release for the event's environment, if registered. */
  releaseRecord: ReleaseRecord | null;
  /** Whether the project has any release record at all (in any environment). */
  projectHasReleases: boolean;
  /**
   * The issue's event count and distinct user count with this event counted (count and user
   * snoozes end on them). Absent: only a snooze by time can end.
   */
  eventCount?: number;
  userCount?: number;
}

export interface EventOutcome {
  state: LifecycleState;
  /** The event reopened the issue: a regression; `REGRESSED_ISSUE` rules fire. */
  regressed: boolean;
  /** Why a snooze ended, in the user's words ("100 more events since snoozed"); absent otherwise. */
  reason?: string;
}

export const OPEN_STATE: LifecycleState = Object.freeze({
  status: 'open',
  isRegression: false,
  resolvedAt: null,
  resolvedIn: null,
  snoozedUntil: null,
  snooze: null,
}) as LifecycleState;

/** An event arrives for an issue. Events never resolve anything: resolution is only manual. */
export function applyEvent(state: LifecycleState, event: EventFacts): EventOutcome {
  if (state.status === 'snoozed') {
    const reason = snoozeEndReason(state, event);
    return reason === null ? { state, regressed: false } : { ...regress(), reason };
  }
  if (state.status === 'resolved') return isRegression(state, event) ? regress() : { state, regressed: false };
  return { state, regressed: false };
}

/**
 * Why the snooze has ended with this event, or null when it has not: its time has come (the
 * event was accepted at or after it), or the issue's count of events or users has reached the
 * count the snooze named. "Until 100 more events" ends on the 100th event after the snooze.
 */
export function snoozeEndReason(state: LifecycleState, event: EventFacts): string | null {
  const s = state.snooze ?? null;
  const at = event.receivedAt.getTime();
  if (s?.kind === 'events') {
    return event.eventCount !== undefined && s.eventLimit != null && event.eventCount >= s.eventLimit
      ? `${plural(s.forEvents ?? 0, 'more event')} since snoozed`
      : null;
  }
  if (s?.kind === 'users') {
    return event.userCount !== undefined && s.userLimit != null && event.userCount >= s.userLimit
      ? `${plural(s.forUsers ?? 0, 'more user')} since snoozed`
      : null;
  }
  // A snooze from before conditions existed without a time never held anything back.
  if (state.snoozedUntil === null) return 'snooze ended';
  if (state.snoozedUntil.getTime() > at) return null;
  if (s?.kind === 'minutes' && s.minutes != null) return `snoozed for ${duration(s.minutes)}, which has passed`;
  return `snoozed until ${utcMinute(state.snoozedUntil)}, which has passed`;
}

/** `2026-11-25 12:03 UTC` (regression-reason.ts's `formatUtcMinute`; kept here to avoid an import cycle). */
function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** 1440 → "24 hours", 90 → "90 minutes", 2880 → "2 days". */
export function duration(minutes: number): string {
  if (minutes % 1440 === 0) return plural(minutes / 1440, 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}

function regress(): EventOutcome {
  return { state: { ...OPEN_STATE, isRegression: true }, regressed: true };
}

/** The rows of the lifecycle table (docs/releases-and-lifecycle.md) for a resolved issue, in order. */
function isRegression(state: LifecycleState, event: EventFacts): boolean {
  if (!event.projectHasReleases) return true;
  const record = event.releaseRecord;
  // No release, a release never registered, or one registered only for another environment.
  if (event.release === null || record === null) return false;
  if (state.resolvedIn) {
    return record.version !== state.resolvedIn.version && record.deployedAt > state.resolvedIn.deployedAt;
  }
  // Resolved while the project had no releases; it has some now (our decision, docs/releases-and-lifecycle.md).
  return state.resolvedAt !== null && record.deployedAt > state.resolvedAt;
}

/**
 * Resolve (single or bulk). Resolving a resolved issue changes nothing, so a bulk resolve does
 * not move the resolved-in release of issues that were already resolved. A snoozed issue may be
 * resolved too (the table is silent; users expect it).
 */
export function resolve(state: LifecycleState, at: { now: Date; newestRelease: ReleaseRecord | null }): LifecycleState {
  if (state.status === 'resolved') return state;
  return {
    status: 'resolved',
    isRegression: false,
    resolvedAt: at.now,
    resolvedIn: at.newestRelease,
    snoozedUntil: null,
    snooze: null,
  };
}

/**
 * What a person asks for: exactly one of a time (`until`), a duration (`minutes`), a number of
 * further events (`forEvents`) or of further distinct users (`forUsers`).
 */
export interface SnoozeRequest {
  until?: Date | null;
  minutes?: number | null;
  forEvents?: number | null;
  forUsers?: number | null;
}

/**
 * Snooze. Open or snoozed issues only: a resolved issue is reopened first. A count snooze ends
 * when the issue's count reaches its count now plus the number asked, so `at` carries the
 * issue's counters as they are under the row lock.
 */
export function snooze(
  state: LifecycleState,
  at: { now: Date; eventCount?: number; userCount?: number } & SnoozeRequest,
): LifecycleState {
  const given = (['until', 'minutes', 'forEvents', 'forUsers'] as const).filter((k) => at[k] != null);
  if (given.length !== 1) {
    throw new AppError('BAD_USER_INPUT', 'snooze: give exactly one of until, minutes, forEvents or forUsers');
  }
  const now = at.now;
  let until: Date | null = null;
  let condition: SnoozeCondition;
  if (at.until != null) {
    if (Number.isNaN(at.until.getTime()) || at.until.getTime() <= now.getTime()) {
      throw new AppError('BAD_USER_INPUT', 'until: must be a time in the future');
    }
    until = at.until;
    condition = { kind: 'until', at: now };
  } else if (at.minutes != null) {
    const minutes = requireCount('minutes', at.minutes, MAX_SNOOZE_MINUTES);
    until = new Date(now.getTime() + minutes * 60_000);
    condition = { kind: 'minutes', at: now, minutes };
  } else if (at.forEvents != null) {
    const n = requireCount('forEvents', at.forEvents, MAX_SNOOZE_EVENTS);
    condition = { kind: 'events', at: now, forEvents: n, eventLimit: (at.eventCount ?? 0) + n };
  } else {
    const n = requireCount('forUsers', at.forUsers!, MAX_SNOOZE_USERS);
    condition = { kind: 'users', at: now, forUsers: n, userLimit: (at.userCount ?? 0) + n };
  }
  if (state.status === 'resolved') {
    throw new AppError('BAD_USER_INPUT', 'a resolved issue cannot be snoozed: reopen it first');
  }
  return { ...OPEN_STATE, isRegression: state.isRegression, status: 'snoozed', snoozedUntil: until, snooze: condition };
}

function requireCount(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new AppError('BAD_USER_INPUT', `${name}: must be a whole number from 1 to ${max}`);
  }
  return value;
}

/** "until 100 more events", "for 24 hours", "until 2026-12-01T00:00:00.000Z": for the activity line. */
export function describeSnooze(state: Pick<LifecycleState, 'snoozedUntil' | 'snooze'>): string {
  const s = state.snooze;
  if (s?.kind === 'events') return `until ${plural(s.forEvents ?? 0, 'more event')}`;
  if (s?.kind === 'users') return `until ${plural(s.forUsers ?? 0, 'more user')}`;
  if (s?.kind === 'minutes' && s.minutes != null) return `for ${duration(s.minutes)}`;
  return state.snoozedUntil ? `until ${state.snoozedUntil.toISOString()}` : 'indefinitely';
}

/** Manual reopen: back to open, and not a regression (a person decided, not an event). */
export function reopen(state: LifecycleState): LifecycleState {
  if (state.status === 'open') return state;
  return { ...OPEN_STATE };
}
