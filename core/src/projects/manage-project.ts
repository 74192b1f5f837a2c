import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { Project } from '../entities';
import { requireProjectAdmin } from './find-project';

/** Owners and admins rename; members get FORBIDDEN, strangers NOT_FOUND. */
export async function renameProject(ds: DataSource, userId: string, projectId: string, name: string): Promise<Project> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new AppError('BAD_USER_INPUT', 'name: must be 1 to 100 characters');
  const project = await requireProjectAdmin(ds, userId, projectId, 'rename projects');
  await ds.manager.update(Project, { id: project.id }, { name: trimmed });
  return Object.assign(project, { name: trimmed });
}

/**
 * Owners and admins delete a project with everything in it (issues, events, releases, keys,
 * tokens, alert rules: ON DELETE CASCADE). Its DSN keys go with it, but an ingest process that
 * cached a key keeps accepting events for up to its cache TTL (docs/accounts.md); the worker
 * then cannot store them (the project is gone) and dead-letters them.
 */
export async function deleteProject(ds: DataSource, userId: string, projectId: string): Promise<Project> {
  const project = await requireProjectAdmin(ds, userId, projectId, 'delete projects');
  await ds.manager.delete(Project, { id: project.id });
  return project;
}
