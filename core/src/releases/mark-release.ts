import type { DataSource } from 'typeorm';
import { requireProjectAccess, type Caller } from '../access';
import type { Release } from '../entities';
import { AppError } from '../errors';
import { registerRelease, requireReleaseHealth } from './releases';

/**
 * The dashboard's Mark release: registers a deploy now for any member (missing environment =
 * production). Needs Pro or above. Upload tokens register releases through `registerRelease`.
 */
export async function markRelease(
  ds: DataSource,
  caller: Caller,
  input: { projectId: string; version: string; environment?: string | null },
): Promise<Release> {
  await requireProjectAccess(ds, caller, input.projectId, 'write', 'mark releases');
  const version = input.version.trim();
  if (!version || version.length > 200) throw new AppError('BAD_USER_INPUT', 'version: must be 1 to 200 characters');
  await requireReleaseHealth(ds, input.projectId);
  return registerRelease(ds, { projectId: input.projectId, version, environment: input.environment?.trim() || null });
}
