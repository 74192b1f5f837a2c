import type { DataSource } from 'typeorm';
import { findReadableProjectIds, isUuid, type Caller } from '../access';
import { queryRows } from '../db/query-rows';
import type { Event } from '../entities';
import { eventFromRow, type EventRow } from './issue-events';

/**
 * The event with this id (its UUID, the SDK's or ingest's `eventId`) when the caller may read its
 * project; null when it is missing or another tenant's. An event id is unique per project only:
 * the look-up names the caller's projects, so it probes the `(project_id, event_id, …)` index of
 * each partition instead of reading them all (events have no index on the id alone). Should two
 * of the caller's projects hold the same id, the newest event answers.
 */
export async function findEvent(ds: DataSource, caller: Caller, id: string): Promise<Event | null> {
  if (!isUuid(id)) return null;
  const projectIds = await findReadableProjectIds(ds, caller);
  if (projectIds.length === 0) return null;
  const rows = await queryRows<EventRow>(
    ds,
    `SELECT e.* FROM events e WHERE e.project_id = ANY($1::uuid[]) AND e.event_id = $2
      ORDER BY e.received_at DESC LIMIT 1`,
    [projectIds, id.toLowerCase()],
  );
  return rows[0] ? eventFromRow(rows[0]) : null;
}

/**
 * One event of an issue the caller may already read (the caller checked the issue): by its id
 * within the issue's project, so one index probe per partition; null when it is not this issue's.
 * Links made before events were named by their UUID carry the row number (`?event=7`); those
 * still find their event, within this issue only, through the `(issue_id, timestamp, id)` index.
 */
export async function findIssueEvent(
  ds: DataSource,
  issue: { id: string; projectId: string },
  id: string,
): Promise<Event | null> {
  const legacyRow = /^[1-9][0-9]{0,17}$/.test(id);
  if (!legacyRow && !isUuid(id)) return null;
  const rows = await queryRows<EventRow>(
    ds,
    legacyRow
      ? `SELECT e.* FROM events e WHERE e.project_id = $1 AND e.id = $2::bigint AND e.issue_id = $3 LIMIT 1`
      : `SELECT e.* FROM events e WHERE e.project_id = $1 AND e.event_id = $2 AND e.issue_id = $3 LIMIT 1`,
    [issue.projectId, id.toLowerCase(), issue.id],
  );
  return rows[0] ? eventFromRow(rows[0]) : null;
}
