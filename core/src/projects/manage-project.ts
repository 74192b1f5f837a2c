import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { Project } from '../entities';
import { MAX_SENSITIVE_FIELD_CHARS, MAX_SENSITIVE_FIELDS, type PrivacySettings } from '../privacy';
import { requireProjectAccess, type Caller } from '../access';
import { MANAGERS } from '../organizations/roles';
import { auditSourceOf, recordAudit } from '../audit/record-audit';

/** Owners and admins rename; members get FORBIDDEN, strangers NOT_FOUND. */
export async function renameProject(ds: DataSource, caller: Caller, projectId: string, name: string): Promise<Project> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new AppError('BAD_USER_INPUT', 'name: must be 1 to 100 characters');
  const { project } = await requireProjectAccess(
    ds,
    caller,
    projectId,
    // Owners and admins, but a `write` token will do: renaming loses nothing.
    { roles: MANAGERS, scope: 'write' },
    'rename projects',
  );
  if (project.name !== trimmed) {
    await ds.transaction(async (em) => {
      await em.update(Project, { id: project.id }, { name: trimmed });
      await recordAudit(em, {
        organizationId: project.organizationId,
        ...auditSourceOf(caller),
        action: 'project.renamed',
        target: { type: 'project', id: project.id, label: trimmed },
        changes: { before: { name: project.name }, after: { name: trimmed } },
      });
    });
  }
  return Object.assign(project, { name: trimmed });
}

/**
 * Owners and admins delete a project with everything in it (issues, events, releases, keys,
 * tokens, alert rules: ON DELETE CASCADE). Its DSN keys go with it, but an ingest process that
 * cached a key keeps accepting events for up to its cache TTL (docs/accounts.md); the worker
 * then cannot store them (the project is gone) and dead-letters them.
 */
export async function deleteProject(ds: DataSource, caller: Caller, projectId: string): Promise<Project> {
  const { project } = await requireProjectAccess(ds, caller, projectId, 'admin', 'delete projects');
  await ds.transaction(async (em) => {
    await em.delete(Project, { id: project.id });
    await recordAudit(em, {
      organizationId: project.organizationId,
      ...auditSourceOf(caller),
      action: 'project.deleted',
      target: { type: 'project', id: project.id, label: project.name },
      changes: { before: { name: project.name } },
    });
  });
  return project;
}

/**
 * Owners and admins change what the edge scrubs (docs/privacy.md); fields left out keep their
 * value. Sensitive field names are trimmed, deduplicated case-insensitively (they match that
 * way), and refused when empty or too many or too long. The edge sees the change when its cached
 * DSN key expires (up to a minute).
 */
export async function updateProjectPrivacy(
  ds: DataSource,
  caller: Caller,
  projectId: string,
  changes: Partial<PrivacySettings>,
): Promise<Project> {
  const update: Partial<Pick<Project, 'scrubDefaults' | 'sensitiveFields' | 'scrubIpAddresses'>> = {};
  if (changes.scrubDefaults !== undefined) update.scrubDefaults = changes.scrubDefaults;
  if (changes.scrubIpAddresses !== undefined) update.scrubIpAddresses = changes.scrubIpAddresses;
  if (changes.sensitiveFields !== undefined) update.sensitiveFields = sensitiveFieldNames(changes.sensitiveFields);
  const { project } = await requireProjectAccess(ds, caller, projectId, 'admin', 'change privacy settings');
  if (Object.keys(update).length > 0) {
    // The summary names what changed; a save that changes nothing is not an event.
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const key of Object.keys(update) as Array<keyof typeof update>) {
      if (JSON.stringify(project[key]) === JSON.stringify(update[key])) continue;
      before[key] = project[key];
      after[key] = update[key];
    }
    await ds.transaction(async (em) => {
      await em.update(Project, { id: project.id }, update);
      if (Object.keys(after).length === 0) return;
      await recordAudit(em, {
        organizationId: project.organizationId,
        ...auditSourceOf(caller),
        action: 'project.privacy_changed',
        target: { type: 'project', id: project.id, label: project.name },
        changes: { before, after },
      });
    });
  }
  return Object.assign(project, update);
}

/** Validated, trimmed, de-duplicated (case-insensitively) sensitive field names. */
export function sensitiveFieldNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (!name || name.length > MAX_SENSITIVE_FIELD_CHARS) {
      throw new AppError(
        'BAD_USER_INPUT',
        `sensitiveFields: each must be 1 to ${MAX_SENSITIVE_FIELD_CHARS} characters`,
      );
    }
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push(name);
  }
  if (out.length > MAX_SENSITIVE_FIELDS) {
    throw new AppError('BAD_USER_INPUT', `sensitiveFields: at most ${MAX_SENSITIVE_FIELDS}`);
  }
  return out;
}
