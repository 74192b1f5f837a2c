import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { ProjectKey } from '../entities';
import { requireProjectAccess, type Caller } from '../access';
import { isUuid } from './find-project';
import { auditSourceOf, recordAudit } from '../audit/record-audit';
import { keyLabel } from './project-keys';

/**
 * The highest per-key rate limit that can be set: far above what one key sends, low enough that
 * the per-second count stays a small integer in the counters. Past it, set no limit (null).
 */
export const MAX_KEY_RATE_LIMIT_PER_SECOND = 1_000_000;

/**
 * Owners and admins set (or with `null` lift) one key's rate limit, in items per second for
 * everything the key sends (docs/quotas.md). Ingest reads it with the key: the process that
 * answered the change forgets its cached keys of the project at once, other ingest processes
 * within their key cache TTL (60 s). A key of another project answers NOT_FOUND.
 */
export async function updateProjectKeyForUser(
  ds: DataSource,
  {
    caller,
    projectId,
    keyId,
    rateLimitPerSecond,
  }: { caller: Caller; projectId: string; keyId: string; rateLimitPerSecond: number | null },
): Promise<ProjectKey> {
  if (
    rateLimitPerSecond !== null &&
    (!Number.isInteger(rateLimitPerSecond) ||
      rateLimitPerSecond < 1 ||
      rateLimitPerSecond > MAX_KEY_RATE_LIMIT_PER_SECOND)
  ) {
    throw new AppError(
      'BAD_USER_INPUT',
      `rateLimitPerSecond: must be a whole number from 1 to ${MAX_KEY_RATE_LIMIT_PER_SECOND.toLocaleString('en-US')}, or null for no limit`,
    );
  }
  const { project } = await requireProjectAccess(ds, caller, projectId, 'admin', 'change DSN keys');
  const key = isUuid(keyId) ? await ds.manager.findOneBy(ProjectKey, { id: keyId, projectId: project.id }) : null;
  if (!key) throw new AppError('NOT_FOUND', 'Key not found');
  const before = key.rateLimitPerSecond;
  await ds.transaction(async (em) => {
    await em.update(ProjectKey, { id: key.id }, { rateLimitPerSecond });
    await recordAudit(em, {
      organizationId: project.organizationId,
      ...auditSourceOf(caller),
      action: 'project_key.rate_limit_changed',
      target: { type: 'project_key', id: key.id, label: `${project.name}: ${keyLabel(key)}` },
      changes: { before: { rateLimitPerSecond: before }, after: { rateLimitPerSecond } },
    });
  });
  key.rateLimitPerSecond = rateLimitPerSecond;
  return key;
}
