import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { Project, ProjectKey } from '../entities';
import { isUuid } from '../projects/find-project';
import { generateDsnKey } from '../security';

/**
 * Issues a new DSN key and disables the old ones in one transaction. Ingest processes keep
 * accepting an old key until their key cache entry expires (at most a minute).
 */
export async function rotateProjectKey(ds: DataSource, projectId: string): Promise<ProjectKey> {
  if (!isUuid(projectId) || !(await ds.manager.existsBy(Project, { id: projectId }))) {
    throw new AppError('NOT_FOUND', `no project with id "${projectId}"`);
  }
  return ds.transaction(async (em) => {
    await em
      .createQueryBuilder()
      .update(ProjectKey)
      .set({ disabledAt: () => 'now()' })
      .where('project_id = :projectId AND disabled_at IS NULL', { projectId })
      .execute();
    return em.save(em.create(ProjectKey, { projectId, publicKey: generateDsnKey() }));
  });
}
