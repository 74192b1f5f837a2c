import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { SessionUpdate } from './session.schema';

/** The statements of persistSessions: each is one statement for the whole batch. */

export type Final = 'exited' | 'errored' | 'crashed' | 'abnormal';

export interface SessionState {
  release: string;
  environment: string;
  status: 'ok' | Final;
  errored: boolean;
  /** The user's hash from the session's first update that named one: a later crash without a `did` is still theirs. */
  userHash: string | null;
  changed: boolean;
}

export interface CounterRow {
  projectId: string;
  release: string;
  environment: string;
  started: number;
  exited: number;
  errored: number;
  crashed: number;
  abnormal: number;
}

export interface UserRow {
  projectId: string;
  release: string;
  environment: string;
  hash: string;
  crashed: boolean;
}

type Update = SessionUpdate & { projectId: string };

/**
 * Inserts a state row for each session whose init is in the batch (none for one already known),
 * then reads the state of every session the batch updates, locked for the rest of the
 * transaction. `started` holds the keys (`project\0sid`) of the rows this batch created.
 */
export async function startAndLoad(
  em: EntityManager,
  updates: Update[],
  result: { statements: number },
): Promise<{ states: Map<string, SessionState>; started: Set<string> }> {
  const started = new Set<string>();
  const inits = updates.filter((u) => u.init);
  if (inits.length > 0) {
    const rows = await queryRows<{ project_id: string; sid: string }>(
      em,
      `INSERT INTO session_states (project_id, sid, release, environment, user_hash)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[])
       ON CONFLICT (project_id, sid) DO NOTHING
       RETURNING project_id, sid`,
      [
        inits.map((u) => u.projectId),
        inits.map((u) => u.sid),
        inits.map((u) => u.release),
        inits.map((u) => u.environment),
        inits.map((u) => u.userHash ?? null),
      ],
    );
    result.statements++;
    for (const r of rows) started.add(`${r.project_id}\0${r.sid}`);
  }
  const rows = await queryRows<{
    project_id: string;
    sid: string;
    release: string;
    environment: string;
    status: SessionState['status'];
    errored: boolean;
    user_hash: string | null;
  }>(
    em,
    // Sorted, so two workers lock the sessions they share in the same order.
    `SELECT project_id, sid, release, environment, status, errored, user_hash FROM session_states
      WHERE (project_id, sid) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))
      ORDER BY project_id, sid FOR UPDATE`,
    [updates.map((u) => u.projectId), updates.map((u) => u.sid)],
  );
  result.statements++;
  const states = new Map<string, SessionState>();
  for (const r of rows) {
    states.set(`${r.project_id}\0${r.sid}`, {
      release: r.release,
      environment: r.environment,
      status: r.status,
      errored: r.errored,
      userHash: r.user_hash,
      changed: false,
    });
  }
  return { states, started };
}

export async function saveStates(
  em: EntityManager,
  states: Map<string, SessionState>,
  result: { statements: number },
): Promise<void> {
  const changed = [...states].filter(([, s]) => s.changed);
  if (changed.length === 0) return;
  await em.query(
    `UPDATE session_states s SET status = u.status, errored = u.errored, user_hash = u.user_hash, updated_at = now()
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::boolean[], $5::text[]) AS u(project_id, sid, status, errored, user_hash)
      WHERE s.project_id = u.project_id AND s.sid = u.sid`,
    [
      changed.map(([k]) => k.split('\0')[0]),
      changed.map(([k]) => k.split('\0')[1]),
      changed.map(([, s]) => s.status),
      changed.map(([, s]) => s.errored),
      changed.map(([, s]) => s.userHash),
    ],
  );
  result.statements++;
}

/** One upsert adding the batch's counts to each (project, release, environment) row. */
export async function addCounters(
  em: EntityManager,
  rows: CounterRow[],
  result: { statements: number },
): Promise<void> {
  const counted = rows.filter((r) => r.started + r.exited + r.errored + r.crashed + r.abnormal > 0);
  if (counted.length === 0) return;
  // Sorted: two workers adding to the same rows take their locks in the same order.
  counted.sort(
    (a, b) => cmp(a.projectId, b.projectId) || cmp(a.release, b.release) || cmp(a.environment, b.environment),
  );
  const col = (f: (r: CounterRow) => unknown) => counted.map(f);
  await em.query(
    `INSERT INTO release_sessions AS t (project_id, release, environment, started, exited, errored, crashed, abnormal)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[])
     ON CONFLICT (project_id, release, environment) DO UPDATE SET
       started = t.started + excluded.started, exited = t.exited + excluded.exited,
       errored = t.errored + excluded.errored, crashed = t.crashed + excluded.crashed,
       abnormal = t.abnormal + excluded.abnormal, updated_at = now()`,
    [
      col((r) => r.projectId),
      col((r) => r.release),
      col((r) => r.environment),
      col((r) => r.started),
      col((r) => r.exited),
      col((r) => r.errored),
      col((r) => r.crashed),
      col((r) => r.abnormal),
    ],
  );
  result.statements++;
}

/** One upsert of the batch's distinct users; a user once crashed in a release stays crashed. */
export async function addUsers(em: EntityManager, rows: UserRow[], result: { statements: number }): Promise<void> {
  if (rows.length === 0) return;
  rows.sort(
    (a, b) =>
      cmp(a.projectId, b.projectId) ||
      cmp(a.release, b.release) ||
      cmp(a.environment, b.environment) ||
      cmp(a.hash, b.hash),
  );
  await em.query(
    `INSERT INTO release_session_users AS t (project_id, release, environment, user_hash, crashed)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::boolean[])
     ON CONFLICT (project_id, release, environment, user_hash) DO UPDATE SET crashed = true
       WHERE excluded.crashed AND NOT t.crashed`,
    [
      rows.map((r) => r.projectId),
      rows.map((r) => r.release),
      rows.map((r) => r.environment),
      rows.map((r) => r.hash),
      rows.map((r) => r.crashed),
    ],
  );
  result.statements++;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
