import type { DataSource } from 'typeorm';
import { lockIssuesForCaller, requireLockedIssue, type Caller } from '../access';
import { recordIssueActivity } from '../activity/record-activity';
import { Issue } from '../entities';
import { AppError } from '../errors';
import { readIssueForAudit, recordIssueAudit } from './issue-audit';

/**
 * Discards an issue's future events (`discard: true`) or restores normal intake (`false`).
 * While discarded, the worker stores none of its events and gives their quota unit back, and
 * the ingest edge drops the ones it can recognize (the keys in `issue_discard_keys`: the issue's
 * own key and its aliases, then the raw keys the worker learns) before they count against the
 * quota: docs/decisions/023-unmerge-snooze-discard.md. The events stored before stay. Owners and
 * admins only: it throws data away. Changing nothing (discarding a discarded issue) is allowed.
 * NOT_FOUND for an issue of another organization, as for a missing one.
 */
export async function discardIssue(
  ds: DataSource,
  { caller, id, discard, now = new Date() }: { caller: Caller; id: string; discard: boolean; now?: Date },
): Promise<{ issue: Issue; changed: boolean }> {
  const changed = await ds.transaction(async (em) => {
    const locked = await lockIssuesForCaller(em, caller, [id], 'admin', 'discard issues');
    const issue = requireLockedIssue(caller, locked[0], 'admin', 'discard issues');
    const audit = async () => {
      const audited = await readIssueForAudit(em, issue.id);
      if (!audited) return;
      await recordIssueAudit(em, caller, issue.id, audited, discard ? 'issue.discarded' : 'issue.undiscarded', {
        before: { discarded: !discard },
        after: { discarded: discard },
      });
    };
    const record = (message: string) =>
      recordIssueActivity(em, {
        issueId: issue.id,
        projectId: issue.project_id,
        kind: 'DISCARDED',
        actorId: caller.userId,
        message,
        data: { discard },
        at: now,
      });
    if (discard) {
      const rows: unknown[] = await em.query(
        'UPDATE issues SET discarded_at = $2 WHERE id = $1 AND discarded_at IS NULL RETURNING id',
        [issue.id, now.toISOString()],
      );
      if (rows.length === 0) return false;
      await em.query(
        `INSERT INTO issue_discard_keys (project_id, grouping_key, issue_id)
         SELECT project_id, fingerprint, id FROM issues WHERE id = $1
         UNION SELECT project_id, fingerprint, issue_id FROM issue_aliases WHERE issue_id = $1
         ON CONFLICT (project_id, grouping_key) DO UPDATE SET issue_id = excluded.issue_id`,
        [issue.id],
      );
      await record('Discarded: new events are dropped at ingest and not counted');
      await audit();
      return true;
    }
    const rows: unknown[] = await em.query(
      'UPDATE issues SET discarded_at = NULL WHERE id = $1 AND discarded_at IS NOT NULL RETURNING id',
      [issue.id],
    );
    if (rows.length === 0) return false;
    await em.query('DELETE FROM issue_discard_keys WHERE issue_id = $1', [issue.id]);
    await record('Stopped discarding: new events are stored again');
    await audit();
    return true;
  });
  const issue = await ds.manager.findOneBy(Issue, { id });
  if (!issue) throw new AppError('NOT_FOUND', 'Issue not found');
  return { issue, changed };
}
