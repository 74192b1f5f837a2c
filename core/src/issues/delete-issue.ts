import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { lockIssuesWithRole } from './lock-issues';

/**
 * Deletes an issue with its events, users, releases, environments and feedback (all cascade
 * from `issues`). Owners and admins only: it cannot be undone. A later event with the same
 * grouping key starts a new issue (this is "delete", not "delete and discard").
 * Returns the deleted id.
 */
export async function deleteIssue(ds: DataSource, userId: string, issueId: string): Promise<string> {
  return ds.transaction(async (em) => {
    const [issue] = await lockIssuesWithRole(em, userId, [issueId]);
    if (!issue) throw new AppError('NOT_FOUND', 'Issue not found');
    if (issue.role !== 'owner' && issue.role !== 'admin') {
      throw new AppError('FORBIDDEN', 'Only owners and admins can delete issues');
    }
    await em.query('DELETE FROM issues WHERE id = $1', [issue.id]);
    return issue.id;
  });
}
