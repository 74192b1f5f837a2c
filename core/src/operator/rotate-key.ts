import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { Project, ProjectKey } from '../entities';
import { isUuid } from '../projects/find-project';
import { generateDsnKey } from '../security';
import { recordAudit } from '../audit/record-audit';
import { keyLabel } from '../projects/project-keys';

/**
 * Issues a new DSN key and disables the old ones in one transaction. Ingest processes keep
 * accepting an old key until their key cache entry expires (at most a minute).
 */
export async function rotateProjectKey(ds: DataSource, projectId: string): Promise<ProjectKey> {
  const project = isUuid(projectId) ? await ds.manager.findOneBy(Project, { id: projectId }) : null;
  if (!project) throw new AppError('NOT_FOUND', `no project with id "${projectId}"`);
  return ds.transaction(async (em) => {
    await em
      .createQueryBuilder()
      .update(ProjectKey)
      .set({ disabledAt: () => 'now()' })
      .where('project_id = :projectId AND disabled_at IS NULL', { projectId })
      .execute();
    const key = await em.save(em.create(ProjectKey, { projectId, publicKey: generateDsnKey() }));
    await recordAudit(em, {
      organizationId: project.organizationId,
      actor: { type: 'system', name: 'operator' },
      action: 'project_key.rotated',
      target: { type: 'project_key', id: key.id, label: `${project.name}: ${keyLabel(key)}` },
      changes: { after: { projectId, oldKeysKept: false } },
    });
    return key;
  });
}
