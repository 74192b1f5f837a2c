import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { hasEnoughHealthSample } from './health-sample';

/**
 * Release health of one release record (a version deployed to one environment). All figures are
 * about events whose `release` is the version and whose `environment` is the record's.
 */
export interface ReleaseHealth {
  releaseId: string;
  /** Issues whose first event in this environment carried this release. */
  issuesIntroduced: number;
  /** Issues this release reopened (docs/releases-and-lifecycle.md regressions, snoozes that ended included). */
  regressions: number;
  /**
   * Where the crash-free figures come from: `sessions` when Sentry SDKs sent sessions for the
   * release in this environment (decision 045), else `events` (the error events that name users).
   */
  basis: 'sessions' | 'events';
  /** The release's session counters; null when it has none. */
  sessions: SessionCounts | null;
  /** 1 − (crashed + abnormal) / started; null without sessions. */
  crashFreeSessions: number | null;
  /**
   * Distinct users: the sessions' `did`s on the sessions basis, else users (user.id, else
   * user.email) named by the release's events.
   */
  usersSeen: number;
  /** Of those, users with a crashed or abnormal session; on the events basis, with a `fatal` or unhandled event. */
  crashedUsers: number;
  /** (usersSeen − crashedUsers) / usersSeen; null when no session or event named a user. */
  crashFreeUsers: number | null;
  /** From the deploy to the next deploy in the same environment (or now). */
  windowStart: Date;
  windowEnd: Date;
  /** Events carrying the release, timestamped inside the window. */
  windowEvents: number;
  /**
   * Whether the window is a large enough sample to be read as a rate or compared
   * (hasEnoughHealthSample: 30 minutes and 20 events).
   */
  enoughData: boolean;
  /** windowEvents per hour of window; null for an empty window or without enoughData. */
  eventsPerHour: number | null;
  /** The deploy before it in the same environment; null for the first. */
  previousReleaseId: string | null;
}

/** Sessions of a release in one environment, each counted once by its final state (still open: started only). */
export interface SessionCounts {
  started: number;
  exited: number;
  errored: number;
  crashed: number;
  abnormal: number;
}

interface Row {
  s_started: string | null;
  s_exited: string | null;
  s_errored: string | null;
  s_crashed: string | null;
  s_abnormal: string | null;
  s_users: string | null;
  s_crashed_users: string | null;
  id: string;
  prev_id: string | null;
  deployed_at: Date;
  window_end: Date;
  window_events: string;
  users_seen: string | null;
  crashed_users: string | null;
  introduced: string;
  regressions: string;
}

const HOUR_MS = 3_600_000;

/**
 * Health of the given releases and of the deploy before each (for "against the previous
 * release"), in one statement for a whole list. Reads the releases' events through
 * events_project_release_idx; the other figures come from issue_releases, issue_environments
 * and issue_regressions, which the worker maintains.
 */
export async function findReleaseHealth(
  ds: DataSource,
  releaseIds: readonly string[],
  now: Date,
): Promise<Map<string, ReleaseHealth>> {
  const out = new Map<string, ReleaseHealth>();
  if (releaseIds.length === 0) return out;
  const rows = await queryRows<Row>(
    ds,
    `WITH asked AS (SELECT id, project_id, environment FROM releases WHERE id = ANY($1::uuid[])),
     w AS (
       SELECT r.id, r.project_id, r.version, r.environment, r.deployed_at,
              lead(r.deployed_at) OVER win AS next_at, lag(r.id) OVER win AS prev_id
         FROM releases r
        WHERE (r.project_id, r.environment) IN (SELECT project_id, environment FROM asked)
       WINDOW win AS (PARTITION BY r.project_id, r.environment ORDER BY r.deployed_at, r.id)
     ),
     wanted AS (
       SELECT * FROM w
        WHERE id IN (SELECT id FROM asked) OR id IN (SELECT prev_id FROM w WHERE id IN (SELECT id FROM asked))
     )
     SELECT wd.id, wd.prev_id, wd.deployed_at, greatest(wd.deployed_at, coalesce(wd.next_at, $2::timestamptz)) AS window_end,
       (SELECT count(*) FROM events e
         WHERE e.project_id = wd.project_id AND e.release = wd.version AND e.environment = wd.environment
           AND e.timestamp >= wd.deployed_at AND e.timestamp < coalesce(wd.next_at, $2::timestamptz)) AS window_events,
       u.users_seen, u.crashed_users,
       rs.started AS s_started, rs.exited AS s_exited, rs.errored AS s_errored, rs.crashed AS s_crashed,
       rs.abnormal AS s_abnormal, su.s_users, su.s_crashed_users,
       (SELECT count(*) FROM issue_releases ir
          JOIN issues i ON i.id = ir.issue_id
          JOIN issue_environments ie ON ie.issue_id = ir.issue_id AND ie.environment = ir.environment
         WHERE ir.release = wd.version AND ir.environment = wd.environment AND i.project_id = wd.project_id
           AND ir.first_seen = ie.first_seen) AS introduced,
       (SELECT count(DISTINCT g.issue_id) FROM issue_regressions g
         WHERE g.project_id = wd.project_id AND g.release = wd.version AND g.environment = wd.environment) AS regressions
     FROM wanted wd
     LEFT JOIN LATERAL (
       SELECT count(DISTINCT x.uk) AS users_seen, count(DISTINCT x.uk) FILTER (WHERE x.crash) AS crashed_users
         FROM (SELECT coalesce('id:' || nullif(e."user" ->> 'id', ''),
                               'email:' || lower(trim(nullif(e."user" ->> 'email', '')))) AS uk,
                      (e.level = 'fatal' OR e.handled IS FALSE) AS crash
                 FROM events e
                WHERE e.project_id = wd.project_id AND e.release = wd.version AND e.environment = wd.environment) x
        WHERE x.uk IS NOT NULL
     ) u ON true
     LEFT JOIN release_sessions rs
       ON rs.project_id = wd.project_id AND rs.release = wd.version AND rs.environment = wd.environment
     LEFT JOIN LATERAL (
       SELECT count(*) AS s_users, count(*) FILTER (WHERE x.crashed) AS s_crashed_users FROM release_session_users x
        WHERE x.project_id = wd.project_id AND x.release = wd.version AND x.environment = wd.environment
     ) su ON true`,
    [releaseIds, now.toISOString()],
  );
  for (const r of rows) {
    const windowStart = new Date(r.deployed_at);
    const windowEnd = new Date(r.window_end);
    const hours = (windowEnd.getTime() - windowStart.getTime()) / HOUR_MS;
    const sessions = sessionCountsOf(r);
    const basis = sessions ? 'sessions' : 'events';
    const usersSeen = Number((sessions ? r.s_users : r.users_seen) ?? 0);
    const crashedUsers = Number((sessions ? r.s_crashed_users : r.crashed_users) ?? 0);
    const windowEvents = Number(r.window_events);
    const enoughData = hasEnoughHealthSample({ windowStart, windowEnd, windowEvents }, now);
    out.set(r.id, {
      releaseId: r.id,
      issuesIntroduced: Number(r.introduced),
      regressions: Number(r.regressions),
      basis,
      sessions,
      crashFreeSessions: sessions ? crashFreeShare(sessions) : null,
      usersSeen,
      crashedUsers,
      crashFreeUsers: usersSeen === 0 ? null : (usersSeen - crashedUsers) / usersSeen,
      windowStart,
      windowEnd,
      windowEvents,
      enoughData,
      eventsPerHour: enoughData && hours > 0 ? windowEvents / hours : null,
      previousReleaseId: r.prev_id,
    });
  }
  return out;
}

function sessionCountsOf(r: Row): SessionCounts | null {
  const started = Number(r.s_started ?? 0);
  if (started === 0) return null;
  return {
    started,
    exited: Number(r.s_exited ?? 0),
    errored: Number(r.s_errored ?? 0),
    crashed: Number(r.s_crashed ?? 0),
    abnormal: Number(r.s_abnormal ?? 0),
  };
}

/** Abnormal ends count as crashes, as in Sentry; never below 0 (an aggregate may end more than it started). */
function crashFreeShare(s: SessionCounts): number {
  return Math.max(0, 1 - (s.crashed + s.abnormal) / s.started);
}
