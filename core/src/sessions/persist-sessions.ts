import type { EntityManager } from 'typeorm';
import {
  addCounters,
  addUsers,
  saveStates,
  startAndLoad,
  type CounterRow,
  type Final,
  type UserRow,
} from './session-rows';
import type { SessionAggregate, SessionUpdate } from './session.schema';

/** A session job's body with its project, as the worker prepares it. */
export type PreparedSession =
  | ({ kind: 'update'; projectId: string } & SessionUpdate)
  | ({ kind: 'aggregate'; projectId: string } & SessionAggregate);

export interface SessionsResult {
  /** Sessions counted as started, and as ended (by their final state). */
  started: number;
  ended: number;
  /** Updates that changed nothing: no init seen for their session, or the session had already ended. */
  ignored: number;
  /** SQL statements the batch's sessions cost, whatever their number (at most 5). */
  statements: number;
}

/**
 * Counts a batch's sessions into `release_sessions` (one row per project, release and
 * environment) and their users into `release_session_users` (one row per user of a release:
 * crash-free users), inside the caller's transaction. Decision 045.
 *
 * Aggregates are counted as they come. Single sessions follow Sentry's rules with the state kept
 * in `session_states` while they can be updated: an `init` starts a session; an update of a
 * session whose init was never seen is ignored; a session is counted once, by its first final
 * state (exited — errored if it had errors —, crashed or abnormal); later updates are ignored, so
 * the crash @sentry/node sends again when the session ends counts once.
 */
export async function persistSessions(em: EntityManager, batch: PreparedSession[]): Promise<SessionsResult> {
  const result: SessionsResult = { started: 0, ended: 0, ignored: 0, statements: 0 };
  if (batch.length === 0) return result;
  const counters = new Map<string, CounterRow>();
  const users = new Map<string, UserRow>();
  const counter = (projectId: string, release: string, environment: string): CounterRow => {
    const key = `${projectId}\0${release}\0${environment}`;
    let c = counters.get(key);
    if (!c) {
      c = { projectId, release, environment, started: 0, exited: 0, errored: 0, crashed: 0, abnormal: 0 };
      counters.set(key, c);
    }
    return c;
  };
  const user = (
    projectId: string,
    release: string,
    environment: string,
    hash: string | undefined,
    crashed: boolean,
  ) => {
    if (!hash) return;
    const key = `${projectId}\0${release}\0${environment}\0${hash}`;
    const u = users.get(key);
    if (u) u.crashed ||= crashed;
    else users.set(key, { projectId, release, environment, hash, crashed });
  };

  for (const s of batch) {
    if (s.kind !== 'aggregate') continue;
    for (const b of s.buckets) {
      const c = counter(s.projectId, s.release, s.environment);
      const total = b.exited + b.errored + b.crashed + b.abnormal;
      c.started += total;
      c.exited += b.exited;
      c.errored += b.errored;
      c.crashed += b.crashed;
      c.abnormal += b.abnormal;
      result.started += total;
      result.ended += total;
      user(s.projectId, s.release, s.environment, b.userHash, b.crashed + b.abnormal > 0);
    }
  }

  const updates = batch.filter((s): s is Extract<PreparedSession, { kind: 'update' }> => s.kind === 'update');
  if (updates.length > 0) {
    const { states, started } = await startAndLoad(em, updates, result);
    for (const u of updates) {
      const key = `${u.projectId}\0${u.sid}`;
      const state = states.get(key);
      if (state && u.init && started.delete(key)) {
        // The update whose init created the row: the session's start, counted once.
        counter(u.projectId, state.release, state.environment).started++;
        result.started++;
      } else if (!state || state.status !== 'ok') {
        result.ignored++;
        continue;
      }
      if (u.errors > 0 && !state.errored) {
        state.errored = true;
        state.changed = true;
      }
      if (u.userHash && !state.userHash) {
        state.userHash = u.userHash;
        state.changed = true;
      }
      const final = finalOf(u.status, state.errored);
      if (final) {
        state.status = final;
        state.changed = true;
        counter(u.projectId, state.release, state.environment)[final]++;
        result.ended++;
      }
      const hash = u.userHash ?? state.userHash ?? undefined;
      user(u.projectId, state.release, state.environment, hash, final === 'crashed' || final === 'abnormal');
    }
    await saveStates(em, states, result);
  }

  await addCounters(em, [...counters.values()], result);
  await addUsers(em, [...users.values()], result);
  return result;
}

function finalOf(status: SessionUpdate['status'], errored: boolean): Final | null {
  switch (status) {
    case 'ok':
      return null;
    case 'exited':
    case 'errored':
      return errored || status === 'errored' ? 'errored' : 'exited';
    default:
      return status;
  }
}
