import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { Role } from '../entities';
import { isUuid } from '../projects/find-project';

export interface LockedIssue {
  id: string;
  project_id: string;
  fingerprint: string;
  role: Role;
}

/**
 * Locks the issues among `ids` that the user can see (in id order, so concurrent calls cannot
 * deadlock each other), with the user's role in their organization. Issues of other
 * organizations are absent, exactly like missing ones.
 */
export async function lockIssuesWithRole(em: EntityManager, userId: string, ids: string[]): Promise<LockedIssue[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  return queryRows<LockedIssue>(
    em,
    `SELECT i.id, i.project_id, i.fingerprint, m.role
       FROM issues i
       JOIN projects p ON p.id = i.project_id
       JOIN memberships m ON m.organization_id = p.organization_id AND m.user_id = $1
      WHERE i.id = ANY($2::uuid[])
      ORDER BY i.id
      FOR UPDATE OF i`,
    [userId, valid],
  );
}
