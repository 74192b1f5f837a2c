import type { DataSource } from 'typeorm';
import { lockIssuesForCaller, requireLockedIssue, type Caller } from '../access';
import { readIssueForAudit, recordIssueAudit } from './issue-audit';

/**
 * Deletes an issue with its events, users, releases, environments and feedback (all cascade
 * from `issues`). Owners and admins only: it cannot be undone. A later event with the same
 * grouping key starts a new issue (this is "delete", not "delete and discard").
 * Returns the deleted id.
 */
export async function deleteIssue(ds: DataSource, caller: Caller, issueId: string): Promise<string> {
  return ds.transaction(async (em) => {
    const locked = await lockIssuesForCaller(em, caller, [issueId], 'admin', 'delete issues');
    const issue = requireLockedIssue(caller, locked[0], 'admin', 'delete issues');
    const audited = await readIssueForAudit(em, issue.id);
    await em.query('DELETE FROM issues WHERE id = $1', [issue.id]);
    if (audited) {
      await recordIssueAudit(em, caller, issue.id, audited, 'issue.deleted', { before: { title: audited.title } });
    }
    // Merges into it (no foreign key: see the grouping-control migration) have nothing to undo now.
    await em.query('DELETE FROM issue_merges WHERE target_issue_id = $1', [issue.id]);
    return issue.id;
  });
}
