import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { Issue, type Role } from '../entities';
import { AppError } from '../errors';
import type { Caller } from './caller';
import { isUuid } from './is-uuid';
import { assertAllowed, assertScope, type AccessNeed, type Need, needOf } from './rules';

/** The issue when the caller belongs to its project's organization; null otherwise, whether or not it exists. */
export async function findIssueAccess(
  on: DataSource | EntityManager,
  caller: Caller,
  issueId: string,
): Promise<{ issue: Issue; role: Role } | null> {
  if (!isUuid(issueId)) return null;
  const manager = 'manager' in on ? on.manager : on;
  const { entities, raw } = await manager
    .createQueryBuilder(Issue, 'i')
    .innerJoin('projects', 'p', 'p.id = i.project_id')
    .innerJoin('memberships', 'm', 'm.organization_id = p.organization_id AND m.user_id = :userId', {
      userId: caller.userId,
    })
    .addSelect('m.role', 'role')
    .where('i.id = :issueId', { issueId })
    .getRawAndEntities<{ role: Role }>();
  return entities[0] ? { issue: entities[0], role: raw[0].role } : null;
}

export interface LockedIssue {
  id: string;
  project_id: string;
  fingerprint: string;
  role: Role;
}

/**
 * Locks the issues among `ids` that the caller can see (in id order, so concurrent calls cannot
 * deadlock each other), with the caller's role in their organization. Issues of other
 * organizations are absent, exactly like missing ones; the caller's scope must cover `need`
 * (roles are the caller's to check, since a bulk call may admit some issues and not others).
 */
export async function lockIssuesForCaller(
  em: EntityManager,
  caller: Caller,
  ids: readonly string[],
  need: Need,
  action: string,
): Promise<LockedIssue[]> {
  assertScope(caller, need, action);
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
    [caller.userId, valid],
  );
}

/** Throws NOT_FOUND when `issue` is absent (missing or another tenant's), FORBIDDEN when the role falls short. */
export function requireLockedIssue(
  caller: Caller,
  issue: LockedIssue | undefined,
  need: AccessNeed,
  action: string,
): LockedIssue {
  if (!issue) throw new AppError('NOT_FOUND', 'Issue not found');
  assertAllowed(caller, issue.role, needOf(need), action);
  return issue;
}
