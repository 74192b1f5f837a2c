import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { assertAllowed, assertScope, findIssueAccess, isUuid, needOf, type Caller } from '../access';
import { recordIssueActivity } from './record-activity';

/** Longest comment body, in characters: a comment, not a log dump. */
export const MAX_COMMENT_CHARS = 10_000;

export interface IssueComment {
  id: string;
  issueId: string;
  projectId: string;
  /** Null when the author's account was deleted. */
  author: { id: string; email: string } | null;
  body: string;
  createdAt: Date;
  updatedAt: Date;
}

interface CommentRow {
  id: string;
  issue_id: string;
  project_id: string;
  author_id: string | null;
  author_email: string | null;
  body: string;
  created_at: Date | string;
  updated_at: Date | string;
}

function commentFromRow(r: CommentRow): IssueComment {
  return {
    id: r.id,
    issueId: r.issue_id,
    projectId: r.project_id,
    author: r.author_id && r.author_email ? { id: r.author_id, email: r.author_email } : null,
    body: r.body,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** Plain text, trimmed, not empty, at most MAX_COMMENT_CHARS; NUL (which PostgreSQL text refuses) becomes U+FFFD. */
function checkBody(body: string): string {
  const text = body.replace(/\u0000/g, '\ufffd').trim();
  if (text.length === 0) throw new AppError('BAD_USER_INPUT', 'body: write something first');
  if (text.length > MAX_COMMENT_CHARS) {
    throw new AppError(
      'BAD_USER_INPUT',
      `body: a comment is at most ${MAX_COMMENT_CHARS.toLocaleString('en-US')} characters (this one has ${text.length.toLocaleString('en-US')})`,
    );
  }
  return text;
}

/**
 * Comments on one of the caller's issues: any member may (a `write` token too). Recorded as a
 * COMMENTED row of the issue's activity in the same transaction; the row shows the comment's
 * current text and goes with it. NOT_FOUND for an issue of another organization.
 */
export async function addComment(
  ds: DataSource,
  { caller, issueId, body, now }: { caller: Caller; issueId: string; body: string; now: Date },
): Promise<IssueComment> {
  assertScope(caller, 'write', 'comment on issues');
  const text = checkBody(body);
  const access = await findIssueAccess(ds, caller, issueId);
  if (!access) throw new AppError('NOT_FOUND', 'Issue not found');
  assertAllowed(caller, access.role, needOf('write'), 'comment on issues');
  const { issue } = access;
  const row = await ds.transaction(async (em) => {
    const [c] = await queryRows<CommentRow>(
      em,
      `INSERT INTO issue_comments (issue_id, project_id, author_id, body, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5)
       RETURNING id, issue_id, project_id, author_id, (SELECT email FROM users WHERE id = $3) AS author_email,
                 body, created_at, updated_at`,
      [issue.id, issue.projectId, caller.userId, text, now.toISOString()],
    );
    await recordIssueActivity(em, {
      issueId: issue.id,
      projectId: issue.projectId,
      kind: 'COMMENTED',
      actorId: caller.userId,
      message: text,
      data: { commentId: c.id },
      commentId: c.id,
      at: now,
    });
    return c;
  });
  return commentFromRow(row);
}

/** The comment when the caller is a member of its organization; null otherwise (missing or not theirs). */
async function findCommentForCaller(ds: DataSource, caller: Caller, id: string): Promise<CommentRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await queryRows<CommentRow>(
    ds,
    `SELECT c.id, c.issue_id, c.project_id, c.author_id, u.email AS author_email, c.body, c.created_at, c.updated_at
       FROM issue_comments c
       JOIN projects p ON p.id = c.project_id
       JOIN memberships m ON m.organization_id = p.organization_id AND m.user_id = $2
       LEFT JOIN users u ON u.id = c.author_id
      WHERE c.id = $1`,
    [id, caller.userId],
  );
  return row ?? null;
}

/** The comment's author only (FORBIDDEN for other members, NOT_FOUND outside the organization). */
async function requireOwnComment(ds: DataSource, caller: Caller, id: string, action: string): Promise<CommentRow> {
  assertScope(caller, 'write', action);
  const row = await findCommentForCaller(ds, caller, id);
  if (!row) throw new AppError('NOT_FOUND', 'Comment not found');
  if (row.author_id !== caller.userId) throw new AppError('FORBIDDEN', `Only its author can ${action}`);
  return row;
}

/** Edits one's own comment; the timeline shows the new text (and that it was edited). */
export async function updateComment(
  ds: DataSource,
  { caller, id, body, now }: { caller: Caller; id: string; body: string; now: Date },
): Promise<IssueComment> {
  const text = checkBody(body);
  const row = await requireOwnComment(ds, caller, id, 'edit a comment');
  // The author check is repeated in the statement: a concurrent account change cannot slip by.
  const [updated] = await queryRows<CommentRow>(
    ds,
    `UPDATE issue_comments c SET body = $3, updated_at = $4 WHERE c.id = $1 AND c.author_id = $2
     RETURNING c.id, c.issue_id, c.project_id, c.author_id, (SELECT email FROM users WHERE id = $2) AS author_email,
               c.body, c.created_at, c.updated_at`,
    [row.id, caller.userId, text, now.toISOString()],
  );
  if (!updated) throw new AppError('NOT_FOUND', 'Comment not found');
  return commentFromRow(updated);
}

/** Deletes one's own comment and its row of the timeline. Returns its id. */
export async function deleteComment(ds: DataSource, { caller, id }: { caller: Caller; id: string }): Promise<string> {
  const row = await requireOwnComment(ds, caller, id, 'delete a comment');
  await ds.query('DELETE FROM issue_comments WHERE id = $1 AND author_id = $2', [row.id, caller.userId]);
  return row.id;
}
