import type { DataSource } from 'typeorm';
import { findProjectAccess, type Caller } from '../access';
import { Project, ProjectKey } from '../entities';

export { isUuid } from '../access/is-uuid';

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

/** The project when the caller may read it; null when it is missing or another tenant's. */
export async function findProject(ds: DataSource, caller: Caller, projectId: string): Promise<Project | null> {
  return (await findProjectAccess(ds, caller, projectId))?.project ?? null;
}
