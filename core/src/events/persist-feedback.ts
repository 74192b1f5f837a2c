import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { RecordsResult } from './persist-records';
import type { PreparedFeedback } from './prepare-feedback';

export interface FeedbackResult extends RecordsResult {
  /** Inserted feedback whose event was already stored, and so got its issue. */
  linked: number;
}

/**
 * Stores feedback with the issue of its event, looked up in the same statement. Run it after
 * the batch's events are persisted, so feedback sent right after its error (the usual case,
 * often in the same batch) finds it. Feedback can also arrive first (another queue partition,
 * a retried error request): it is stored with `issue_id` null and `persistEvents` links it
 * when the event lands.
 *
 * Known gap: two workers committing an event and its feedback at the same moment each miss
 * the other's uncommitted row, and the feedback stays unlinked. Closing it would need a lock
 * on the error path, which every event pays for; `event_id` is kept, so it can be re-linked.
 */
export async function persistFeedback(em: EntityManager, feedback: PreparedFeedback[]): Promise<FeedbackResult> {
  if (feedback.length === 0) return { inserted: 0, duplicates: 0, linked: 0 };
  const rows = await queryRows<{ id: string; issue_id: string | null }>(
    em,
    `INSERT INTO feedback (project_id, id, message, email, event_id, issue_id, received_at, name, url)
     SELECT d.project_id, d.id, d.message, d.email, d.event_id, e.issue_id, d.received_at, d.name, d.url
     FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::timestamptz[], $7::text[], $8::text[])
       AS d(project_id, id, message, email, event_id, received_at, name, url)
     LEFT JOIN events e ON e.project_id = d.project_id AND e.event_id = d.event_id
     ON CONFLICT (project_id, id) DO NOTHING
     RETURNING id, issue_id`,
    [
      feedback.map((f) => f.projectId),
      feedback.map((f) => f.id),
      feedback.map((f) => f.message),
      feedback.map((f) => f.email),
      feedback.map((f) => f.eventId),
      feedback.map((f) => f.receivedAt.toISOString()),
      feedback.map((f) => f.name ?? null),
      feedback.map((f) => f.url ?? null),
    ],
  );
  return {
    inserted: rows.length,
    duplicates: feedback.length - rows.length,
    linked: rows.filter((r) => r.issue_id !== null).length,
  };
}
