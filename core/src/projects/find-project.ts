import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { Project, ProjectKey } from '../entities';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The project if the user is a member of its organization; null otherwise, whether or not it exists. */
export async function findProjectForUser(ds: DataSource, userId: string, projectId: string): Promise<Project | null> {
  if (!isUuid(projectId)) return null;
  const rows: Project[] = await ds.manager
    .createQueryBuilder(Project, 'p')
    .innerJoin('memberships', 'm', 'm.organization_id = p.organization_id AND m.user_id = :userId', { userId })
    .where('p.id = :projectId', { projectId })
    .getMany();
  return rows[0] ?? null;
}

export async function requireProjectForUser(ds: DataSource, userId: string, projectId: string): Promise<Project> {
  const project = await findProjectForUser(ds, userId, projectId);
  if (!project) throw new AppError('NOT_FOUND', 'Project not found');
  return project;
}

/** Projects of the given organizations, oldest first. */
export async function listProjects(ds: DataSource, organizationIds: string[]): Promise<Project[]> {
  if (organizationIds.length === 0) return [];
  return ds.manager
    .createQueryBuilder(Project, 'p')
    .where('p.organization_id IN (:...organizationIds)', { organizationIds })
    .orderBy('p.created_at', 'ASC')
    .getMany();
}

/** The key shown in the DSN: the newest enabled one (a rotation's new key, even while old ones still work). */
export async function findPrimaryKeys(ds: DataSource, projectIds: string[]): Promise<Map<string, ProjectKey>> {
  if (projectIds.length === 0) return new Map();
  const keys = await ds.manager
    .createQueryBuilder(ProjectKey, 'k')
    .where('k.project_id IN (:...projectIds)', { projectIds })
    .andWhere('k.disabled_at IS NULL')
    .orderBy('k.created_at', 'DESC')
    .addOrderBy('k.id', 'DESC')
    .getMany();
  const byProject = new Map<string, ProjectKey>();
  for (const k of keys) if (!byProject.has(k.projectId)) byProject.set(k.projectId, k);
  return byProject;
}

/**
 * The project when the user is an owner or admin of its organization. A member gets FORBIDDEN
 * (they can see the project); anyone else NOT_FOUND, as if it did not exist.
 */
export async function requireProjectAdmin(
  ds: DataSource,
  userId: string,
  projectId: string,
  action: string,
): Promise<Project> {
  const project = await requireProjectForUser(ds, userId, projectId);
  const rows: Array<{ role: string }> = await ds.query(
    'SELECT role FROM memberships WHERE organization_id = $1 AND user_id = $2',
    [project.organizationId, userId],
  );
  if (rows[0]?.role !== 'owner' && rows[0]?.role !== 'admin') {
    throw new AppError('FORBIDDEN', `Only owners and admins can ${action}`);
  }
  return project;
}
