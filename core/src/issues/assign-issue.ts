import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { Issue } from '../entities';
import { AppError } from '../errors';
import { isUuid, lockIssuesForCaller, requireLockedIssue, type Caller } from '../access';
import { recordIssueActivity } from '../activity/record-activity';

export interface AssignmentResult {
  issue: Issue;
  /** The member it is assigned to now, or null. */
  assignee: { id: string; email: string } | null;
  /** False when it already was (no activity row, no email). */
  changed: boolean;
  /** Who assigned it. */
  actor: { id: string; email: string };
  projectName: string;
}

/**
 * Assigns one of the caller's issues to a member of its organization, or unassigns it (`userId`
 * null). Any member may (triage is everyone's job, as resolving is). Someone who is not a member
 * of the issue's organization is BAD_USER_INPUT with a message saying so (the caller can see the
 * members, so nothing is revealed); an issue of another organization is NOT_FOUND like a missing
 * one. A change is recorded as ASSIGNED in the issue's activity, in the same transaction.
 */
export async function assignIssue(
  ds: DataSource,
  { caller, id, userId, now }: { caller: Caller; id: string; userId: string | null; now: Date },
): Promise<AssignmentResult> {
  const result = await ds.transaction(async (em) => {
    const locked = await lockIssuesForCaller(em, caller, [id], 'write', 'assign issues');
    const issue = requireLockedIssue(caller, locked[0], 'write', 'assign issues');
    const [current] = await queryRows<{ assignee_id: string | null; project_name: string; actor_email: string }>(
      em,
      `SELECT i.assignee_id, p.name AS project_name, (SELECT email FROM users WHERE id = $2) AS actor_email
         FROM issues i JOIN projects p ON p.id = i.project_id WHERE i.id = $1`,
      [issue.id, caller.userId],
    );
    let assignee: { id: string; email: string } | null = null;
    if (userId !== null) {
      const [member] = isUuid(userId)
        ? await queryRows<{ id: string; email: string }>(
            em,
            `SELECT u.id, u.email FROM users u
               JOIN memberships m ON m.user_id = u.id
               JOIN projects p ON p.organization_id = m.organization_id
              WHERE p.id = $1 AND u.id = $2`,
            [issue.project_id, userId],
          )
        : [];
      if (!member) {
        throw new AppError('BAD_USER_INPUT', "userId: not a member of this issue's organization");
      }
      assignee = member;
    }
    const previousId = current.assignee_id;
    const changed = previousId !== (assignee?.id ?? null);
    if (changed) {
      await em.query('UPDATE issues SET assignee_id = $2 WHERE id = $1', [issue.id, assignee?.id ?? null]);
      const [previous] = previousId
        ? await queryRows<{ email: string }>(em, 'SELECT email FROM users WHERE id = $1', [previousId])
        : [];
      await recordIssueActivity(em, {
        issueId: issue.id,
        projectId: issue.project_id,
        kind: 'ASSIGNED',
        actorId: caller.userId,
        message: assignee ? `Assigned to ${assignee.email}` : `Unassigned${previous ? ` (was ${previous.email})` : ''}`,
        data: {
          assigneeId: assignee?.id ?? null,
          assigneeEmail: assignee?.email ?? null,
          previousAssigneeId: previousId,
        },
        at: now,
      });
    }
    return {
      id: issue.id,
      assignee,
      changed,
      actor: { id: caller.userId, email: current.actor_email },
      projectName: current.project_name,
    };
  });
  const issue = (await ds.manager.findOneBy(Issue, { id: result.id }))!;
  return {
    issue,
    assignee: result.assignee,
    changed: result.changed,
    actor: result.actor,
    projectName: result.projectName,
  };
}

export interface AssignmentEmail {
  subject: string;
  text: string;
  html: string;
}

// Titles come from events and emails from users: no line breaks in a header, escaped in HTML.
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const clipped = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The email to a member an issue was assigned to; `publicUrl` is the dashboard's base URL. */
export function renderAssignmentEmail(input: {
  publicUrl: string;
  projectId: string;
  projectName: string;
  issueId: string;
  issueTitle: string;
  assignerEmail: string;
}): AssignmentEmail {
  const title = clipped(oneLine(input.issueTitle), 150);
  const project = oneLine(input.projectName);
  const assigner = oneLine(input.assignerEmail);
  const link = `${input.publicUrl.replace(/\/+$/, '')}/projects/${encodeURIComponent(input.projectId)}/issues/${encodeURIComponent(input.issueId)}`;
  const subject = clipped(`[${project}] ${assigner} assigned you: ${title}`, 200);
  const text = [`${assigner} assigned you an issue in ${project} on Tracker:`, '', title, '', `Open it: ${link}`].join(
    '\n',
  );
  const html = [
    `<p>${escapeHtml(assigner)} assigned you an issue in <strong>${escapeHtml(project)}</strong> on Tracker:</p>`,
    `<p>${escapeHtml(title)}</p>`,
    `<p><a href="${escapeHtml(link)}">Open the issue</a></p>`,
  ].join('\n');
  return { subject, text, html };
}

/**
 * Id and email of users by id, for `Issue.assignee` on a page of issues the caller already may
 * read (an assignee is a member of the issue's organization: leavers are unassigned).
 */
export async function findUserRefs(
  ds: DataSource,
  ids: readonly string[],
): Promise<Map<string, { id: string; email: string }>> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return new Map();
  const rows = await queryRows<{ id: string; email: string }>(
    ds,
    'SELECT id, email FROM users WHERE id = ANY($1::uuid[])',
    [valid],
  );
  return new Map(rows.map((r) => [r.id, r]));
}
