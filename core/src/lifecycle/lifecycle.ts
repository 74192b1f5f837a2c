import { AppError } from '../errors';
import type { IssueStatus } from '../entities/issue.entity';

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
}

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
}

export interface EventOutcome {
  state: LifecycleState;
  /** The event reopened the issue: a regression; `REGRESSED_ISSUE` rules fire. */
  regressed: boolean;
}

export const OPEN_STATE: LifecycleState = Object.freeze({
  status: 'open',
  isRegression: false,
  resolvedAt: null,
  resolvedIn: null,
  snoozedUntil: null,
}) as LifecycleState;

/** An event arrives for an issue. Events never resolve anything: resolution is only manual. */
export function applyEvent(state: LifecycleState, event: EventFacts): EventOutcome {
  if (state.status === 'snoozed') {
    const ended = state.snoozedUntil === null || state.snoozedUntil.getTime() <= event.receivedAt.getTime();
    return ended ? regress() : { state, regressed: false };
  }
  if (state.status === 'resolved') return isRegression(state, event) ? regress() : { state, regressed: false };
  return { state, regressed: false };
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
  };
}

/** Snooze until a time. Open or snoozed issues only: a resolved issue is reopened first. */
export function snooze(state: LifecycleState, at: { now: Date; until: Date }): LifecycleState {
  if (Number.isNaN(at.until.getTime()) || at.until.getTime() <= at.now.getTime()) {
    throw new AppError('BAD_USER_INPUT', 'until: must be a time in the future');
  }
  if (state.status === 'resolved') {
    throw new AppError('BAD_USER_INPUT', 'a resolved issue cannot be snoozed: reopen it first');
  }
  return { ...OPEN_STATE, isRegression: state.isRegression, status: 'snoozed', snoozedUntil: at.until };
}

/** Manual reopen: back to open, and not a regression (a person decided, not an event). */
export function reopen(state: LifecycleState): LifecycleState {
  if (state.status === 'open') return state;
  return { ...OPEN_STATE };
}
