import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { ProjectKey } from '../entities';
import { generateDsnKey } from '../security';
import { requireProjectAccess, type Caller } from '../access';
import { isUuid } from './find-project';
import { auditSourceOf, recordAudit } from '../audit/record-audit';

/** How a key is named in the audit log: its first characters (the DSN's public part), enough to recognise it. */
export function keyLabel(key: Pick<ProjectKey, 'publicKey'>): string {
  return `${key.publicKey.slice(0, 8)}…`;
}

/** Enabled keys one project may have at once (rotation with `keepOldKeys` adds one each time). */
export const MAX_ENABLED_KEYS = 10;

/** A project's DSN keys, newest first, disabled ones included. Any member (the DSN is no secret). */
export async function listProjectKeys(ds: DataSource, caller: Caller, projectId: string): Promise<ProjectKey[]> {
  const { project } = await requireProjectAccess(ds, caller, projectId, 'read', 'see DSN keys');
  return ds.manager.find(ProjectKey, { where: { projectId: project.id }, order: { createdAt: 'DESC', id: 'DESC' } });
}

/**
 * Owners and admins: a new DSN key, which becomes the project's DSN. By default every older
 * key is disabled in the same transaction (a leaked key stops working); with `keepOldKeys`
 * they keep working until disabled one by one, for a rollout without lost events.
 */
export async function rotateProjectKeyForUser(
  ds: DataSource,
  caller: Caller,
  projectId: string,
  options: { keepOldKeys?: boolean } = {},
): Promise<ProjectKey> {
  const { project } = await requireProjectAccess(ds, caller, projectId, 'admin', 'rotate DSN keys');
  return ds.transaction(async (em) => {
    if (options.keepOldKeys) {
      const enabled = await em
        .createQueryBuilder(ProjectKey, 'k')
        .where('k.project_id = :id AND k.disabled_at IS NULL', { id: project.id })
        .setLock('pessimistic_write')
        .getMany();
      if (enabled.length >= MAX_ENABLED_KEYS) {
        throw new AppError(
          'BAD_USER_INPUT',
          `A project has at most ${MAX_ENABLED_KEYS} enabled keys: disable old ones first`,
        );
      }
    } else {
      await em
        .createQueryBuilder()
        .update(ProjectKey)
        .set({ disabledAt: () => 'now()' })
        .where('project_id = :id AND disabled_at IS NULL', { id: project.id })
        .execute();
    }
    const key = await em.save(em.create(ProjectKey, { projectId: project.id, publicKey: generateDsnKey() }));
    await recordAudit(em, {
      organizationId: project.organizationId,
      ...auditSourceOf(caller),
      action: 'project_key.rotated',
      target: { type: 'project_key', id: key.id, label: `${project.name}: ${keyLabel(key)}` },
      changes: { after: { projectId: project.id, oldKeysKept: options.keepOldKeys === true } },
    });
    return key;
  });
}

/**
 * Owners and admins disable one key of the project: ingest refuses it once its cache entry
 * expires (docs/accounts.md). A key of another project answers NOT_FOUND. Disabling twice keeps
 * the first time. Disabling the last enabled key stops the project's ingest until a rotation.
 */
export async function disableProjectKeyForUser(
  ds: DataSource,
  { caller, projectId, keyId }: { caller: Caller; projectId: string; keyId: string },
): Promise<ProjectKey> {
  const { project } = await requireProjectAccess(ds, caller, projectId, 'admin', 'disable DSN keys');
  const key = isUuid(keyId) ? await ds.manager.findOneBy(ProjectKey, { id: keyId, projectId: project.id }) : null;
  if (!key) throw new AppError('NOT_FOUND', 'Key not found');
  if (!key.disabledAt) {
    key.disabledAt = new Date();
    await ds.transaction(async (em) => {
      await em.update(ProjectKey, { id: key.id }, { disabledAt: key.disabledAt });
      await recordAudit(em, {
        organizationId: project.organizationId,
        ...auditSourceOf(caller),
        action: 'project_key.disabled',
        target: { type: 'project_key', id: key.id, label: `${project.name}: ${keyLabel(key)}` },
        changes: { before: { enabled: true }, after: { enabled: false } },
      });
    });
  }
  return key;
}
