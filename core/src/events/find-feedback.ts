import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { Feedback } from '../entities';

/** Per issue; the dashboard shows the newest and links to the User feedback page for more. */
export const MAX_FEEDBACK_PER_ISSUE = 100;

/**
 * The newest feedback of each issue, in one query for a whole page of issues. The caller has
 * already checked that the user may see the issues.
 */
export async function findFeedbackForIssues(
  ds: DataSource,
  issueIds: readonly string[],
  perIssue = MAX_FEEDBACK_PER_ISSUE,
): Promise<Map<string, Feedback[]>> {
  const found = new Map<string, Feedback[]>(issueIds.map((id) => [id, []]));
  if (issueIds.length === 0) return found;
  const rows = await queryRows<{
    project_id: string;
    id: string;
    message: string;
    email: string | null;
    name: string | null;
    url: string | null;
    event_id: string | null;
    issue_id: string;
    received_at: Date;
  }>(
    ds,
    `SELECT project_id, id, message, email, name, url, event_id, issue_id, received_at FROM (
       SELECT f.*, row_number() OVER (PARTITION BY f.issue_id ORDER BY f.received_at DESC, f.id DESC) AS n
       FROM feedback f WHERE f.issue_id = ANY($1::uuid[])
     ) ranked
     WHERE n <= $2
     ORDER BY issue_id, received_at DESC, id DESC`,
    [[...issueIds], perIssue],
  );
  for (const r of rows) {
    found.get(r.issue_id)?.push({
      projectId: r.project_id,
      id: r.id,
      message: r.message,
      email: r.email,
      name: r.name,
      url: r.url,
      eventId: r.event_id,
      issueId: r.issue_id,
      receivedAt: new Date(r.received_at),
    });
  }
  return found;
}
