import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { assertScope, findIssueAccess, type Caller } from '../access';
import type { IssueActivityKind } from './record-activity';
import type { IssueComment } from './comments';

/** Default and largest page of an issue's timeline. */
export const DEFAULT_ACTIVITY_PAGE = 50;
export const MAX_ACTIVITY_PAGE = 200;

export interface IssueActivityEntry {
  id: string;
  issueId: string;
  kind: IssueActivityKind;
  /** Null for the system (worker, alert dispatcher) or a deleted account. */
  actor: { id: string; email: string } | null;
  createdAt: Date;
  /** The sentence shown; for COMMENTED, the comment's current text. */
  message: string;
  data: Record<string, unknown>;
  /** COMMENTED only. */
  comment: IssueComment | null;
}

interface ActivityRow {
  id: string;
  issue_id: string;
  project_id: string;
  kind: IssueActivityKind;
  actor_id: string | null;
  actor_email: string | null;
  created_at: Date | string;
  message: string;
  data: Record<string, unknown> | string | null;
  comment_id: string | null;
  c_author_id: string | null;
  c_author_email: string | null;
  c_body: string | null;
  c_created_at: Date | string | null;
  c_updated_at: Date | string | null;
}

/**
 * An issue's timeline, newest first (ties in insertion order, newest first): one indexed range
 * of issue_activity. NOT_FOUND when the caller may not read the issue (another organization's,
 * or missing), as for the issue itself.
 */
export async function listIssueActivity(
  ds: DataSource,
  { caller, issueId, first = DEFAULT_ACTIVITY_PAGE }: { caller: Caller; issueId: string; first?: number },
): Promise<IssueActivityEntry[]> {
  assertScope(caller, 'read', 'see issue activity');
  if (!Number.isInteger(first) || first < 1 || first > MAX_ACTIVITY_PAGE) {
    throw new AppError('BAD_USER_INPUT', `first: must be between 1 and ${MAX_ACTIVITY_PAGE}`);
  }
  const access = await findIssueAccess(ds, caller, issueId);
  if (!access) throw new AppError('NOT_FOUND', 'Issue not found');
  const rows = await queryRows<ActivityRow>(
    ds,
    `SELECT a.id, a.issue_id, a.project_id, a.kind, a.actor_id, ua.email AS actor_email, a.created_at, a.message, a.data,
            a.comment_id, c.author_id AS c_author_id, uc.email AS c_author_email, c.body AS c_body,
            c.created_at AS c_created_at, c.updated_at AS c_updated_at
       FROM (SELECT * FROM issue_activity WHERE issue_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2) a
       LEFT JOIN users ua ON ua.id = a.actor_id
       LEFT JOIN issue_comments c ON c.id = a.comment_id
       LEFT JOIN users uc ON uc.id = c.author_id
      ORDER BY a.created_at DESC, a.seq DESC`,
    [access.issue.id, first],
  );
  return rows.map((r) => {
    const comment: IssueComment | null =
      r.comment_id && r.c_body !== null
        ? {
            id: r.comment_id,
            issueId: r.issue_id,
            projectId: r.project_id,
            author: r.c_author_id && r.c_author_email ? { id: r.c_author_id, email: r.c_author_email } : null,
            body: r.c_body,
            createdAt: new Date(r.c_created_at!),
            updatedAt: new Date(r.c_updated_at!),
          }
        : null;
    return {
      id: r.id,
      issueId: r.issue_id,
      kind: r.kind,
      actor: r.actor_id && r.actor_email ? { id: r.actor_id, email: r.actor_email } : null,
      createdAt: new Date(r.created_at),
      message: comment ? comment.body : r.message,
      data: typeof r.data === 'string' ? (JSON.parse(r.data) as Record<string, unknown>) : (r.data ?? {}),
      comment,
    };
  });
}
