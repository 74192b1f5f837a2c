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
 * list is (`timestamp`, then the row id): four `LIMIT 1` probes of `events_issue_timestamp_idx`
 * in one statement, each reading one row per partition at most, so the cost does not grow with
 * the issue's events (docs/issue-queries.md). Oldest and latest are null when they are the event
 * itself.
 */
export async function findEventNeighbours(
  ds: DataSource,
  event: { issueId: string; projectId: string; eventId: string },
): Promise<EventNeighbours> {
  // The event's own sort key is read from its row (a probe of the project's event id index),
  // not passed in: a JavaScript Date would cut the stored microseconds.
  const [row] = await queryRows<EventNeighbours>(
    ds,
    `WITH me AS (
       SELECT timestamp, id FROM events WHERE project_id = $2 AND event_id = $3 AND issue_id = $1 LIMIT 1
     )
     SELECT
       (SELECT event_id FROM events WHERE issue_id = $1 ORDER BY timestamp ASC, id ASC LIMIT 1) AS oldest,
       (SELECT e.event_id FROM events e, me WHERE e.issue_id = $1 AND (e.timestamp, e.id) < (me.timestamp, me.id)
         ORDER BY e.timestamp DESC, e.id DESC LIMIT 1) AS older,
       (SELECT e.event_id FROM events e, me WHERE e.issue_id = $1 AND (e.timestamp, e.id) > (me.timestamp, me.id)
         ORDER BY e.timestamp ASC, e.id ASC LIMIT 1) AS newer,
       (SELECT event_id FROM events WHERE issue_id = $1 ORDER BY timestamp DESC, id DESC LIMIT 1) AS latest`,
    [event.issueId, event.projectId, event.eventId],
  );
  return {
    oldest: row.older === null ? null : row.oldest,
    older: row.older,
    newer: row.newer,
    latest: row.newer === null ? null : row.latest,
  };
}
