import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { Membership, Project, ProjectKey } from '../entities';
import { generateDsnKey } from '../security';

export interface CreatedProject {
  project: Project;
  key: ProjectKey;
}

/** Owners and admins create projects; every project starts with one DSN key. */
export async function createProject(
  ds: DataSource,
  userId: string,
  organizationId: string,
  name: string,
): Promise<CreatedProject> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new AppError('BAD_USER_INPUT', 'name: must be 1 to 100 characters');
  const membership = await ds.manager.findOneBy(Membership, { organizationId, userId });
  // Same answer as a missing organization: ids of other tenants must not be probeable.
  if (!membership) throw new AppError('NOT_FOUND', 'Organization not found');
  if (membership.role === 'member') throw new AppError('FORBIDDEN', 'Only owners and admins can create projects');
  return ds.transaction(async (em) => {
    const project = await em.save(em.create(Project, { organizationId, name: trimmed }));
    const key = await em.save(em.create(ProjectKey, { projectId: project.id, publicKey: generateDsnKey() }));
    return { project, key };
  });
}
