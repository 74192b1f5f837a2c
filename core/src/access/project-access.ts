import type { DataSource, EntityManager } from 'typeorm';
import { Project, type Role } from '../entities';
import { AppError } from '../errors';
import type { Caller } from './caller';
import { isUuid } from './is-uuid';
import { assertAllowed, canSeeSecrets, type AccessNeed, needOf } from './rules';

export interface ProjectAccess {
  project: Project;
  /** The caller's role in the project's organization. */
  role: Role;
  /** Whether the caller sees the project's secrets in full (rules.ts `canSeeSecrets`). */
  seesSecrets: boolean;
}

/** The project and the caller's role, when the caller belongs to its organization; null otherwise. */
export async function findProjectAccess(
  on: DataSource | EntityManager,
  caller: Caller,
  projectId: string,
): Promise<ProjectAccess | null> {
  if (!isUuid(projectId)) return null;
  const manager = 'manager' in on ? on.manager : on;
  const { entities, raw } = await manager
    .createQueryBuilder(Project, 'p')
    .innerJoin('memberships', 'm', 'm.organization_id = p.organization_id AND m.user_id = :userId', {
      userId: caller.userId,
    })
    .addSelect('m.role', 'role')
    .where('p.id = :projectId', { projectId })
    .getRawAndEntities<{ role: Role }>();
  const project = entities[0];
  if (!project) return null;
  const role = raw[0].role;
  return { project, role, seesSecrets: canSeeSecrets(caller, role) };
}

/**
 * The project when the caller may do `action` on it: NOT_FOUND for anyone outside its
 * organization (exactly as for an id that does not exist), FORBIDDEN for a member whose role or
 * token scope falls short of `need`.
 */
export async function requireProjectAccess(
  on: DataSource | EntityManager,
  caller: Caller,
  projectId: string,
  need: AccessNeed,
  action: string,
): Promise<ProjectAccess> {
  const access = await findProjectAccess(on, caller, projectId);
  if (!access) throw new AppError('NOT_FOUND', 'Project not found');
  assertAllowed(caller, access.role, needOf(need), action);
  return access;
}

/** Of `projectIds`, the ones whose secrets the caller sees in full: one query for a whole list. */
export async function findProjectsWithSecretsShown(
  on: DataSource | EntityManager,
  caller: Caller,
  projectIds: readonly string[],
): Promise<Set<string>> {
  const valid = projectIds.filter(isUuid);
  if (valid.length === 0) return new Set();
  const rows: Array<{ id: string; role: Role }> = await on.query(
    `SELECT p.id, m.role FROM projects p
       JOIN memberships m ON m.organization_id = p.organization_id AND m.user_id = $2
      WHERE p.id = ANY($1::uuid[])`,
    [valid, caller.userId],
  );
  return new Set(rows.filter((r) => canSeeSecrets(caller, r.role)).map((r) => r.id));
}

/**
 * The ids of every project the caller may read (every project of the organizations it belongs
 * to): for a look-up by a key that is unique per project only, such as an event's id.
 */
export async function findReadableProjectIds(on: DataSource | EntityManager, caller: Caller): Promise<string[]> {
  const rows: Array<{ id: string }> = await on.query(
    `SELECT p.id FROM projects p JOIN memberships m ON m.organization_id = p.organization_id WHERE m.user_id = $1`,
    [caller.userId],
  );
  return rows.map((r) => r.id);
}
