import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';

/** Ids (UUIDs) of an issue's events around one of them, in the order of its events list. */
export interface EventNeighbours {
  /** The issue's first event; null when it is this one. */
  oldest: string | null;
  /** The event just before this one; null when there is none. */
  older: string | null;
  newer: string | null;
  latest: string | null;
}

/**
 * The first, previous, next and last events of the event's issue, ordered as the issue's events
 * list is (`timestamp`, then the row id): the event's key, then four `LIMIT 1` probes of
 * `events_issue_timestamp_idx` in one statement, each reading one row per partition at most, so
 * the cost does not grow with the issue's events (docs/issue-queries.md). Oldest and latest are
 * null when they are the event itself; all four are null when the event is gone.
 */
export async function findEventNeighbours(
  ds: DataSource,
  event: { issueId: string; projectId: string; eventId: string },
): Promise<EventNeighbours> {
  // The event's own sort key is read first, by its id (a probe of the project's event id index),
  // as text with microseconds (a JavaScript Date would cut them), then passed as constants: a
  // key joined in from a CTE was only a join filter, and the older/newer probes read every event
  // of the issue on one side of it (600 ms at 200,000 events, event-navigation.bench.ts).
  const [me] = await queryRows<{ ts: string; id: string }>(
    ds,
    `SELECT to_char(timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ts, id::text AS id
       FROM events WHERE project_id = $1 AND event_id = $2 AND issue_id = $3 LIMIT 1`,
    [event.projectId, event.eventId, event.issueId],
  );
  if (!me) return { oldest: null, older: null, newer: null, latest: null };
  const [row] = await queryRows<EventNeighbours>(
    ds,
    `SELECT
       (SELECT event_id FROM events WHERE issue_id = $1 ORDER BY timestamp ASC, id ASC LIMIT 1) AS oldest,
       (SELECT event_id FROM events WHERE issue_id = $1 AND (timestamp, id) < ($2::timestamptz, $3::bigint)
         ORDER BY timestamp DESC, id DESC LIMIT 1) AS older,
       (SELECT event_id FROM events WHERE issue_id = $1 AND (timestamp, id) > ($2::timestamptz, $3::bigint)
         ORDER BY timestamp ASC, id ASC LIMIT 1) AS newer,
       (SELECT event_id FROM events WHERE issue_id = $1 ORDER BY timestamp DESC, id DESC LIMIT 1) AS latest`,
    [event.issueId, me.ts, me.id],
  );
  return {
    oldest: row.older === null ? null : row.oldest,
    older: row.older,
    newer: row.newer,
    latest: row.newer === null ? null : row.latest,
  };
}
