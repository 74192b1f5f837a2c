import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { requireOrganizationAccess, sessionCaller, type Caller } from '../access';
import { auditSourceOf, recordAudit } from '../audit/record-audit';
import { Project, ProjectKey } from '../entities';
import { MANAGERS } from '../organizations/roles';
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
  /** The request's caller, for the audit log (its token and address); default: a session of `userId`. */
  caller: Caller = sessionCaller(userId),
): Promise<CreatedProject> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new AppError('BAD_USER_INPUT', 'name: must be 1 to 100 characters');
  // A user id, not a Caller: sign-up, the CLI and the benches create projects too (the API's scope
  // guard holds tokens to `write`). Strangers get NOT_FOUND, as for a missing organization.
  await requireOrganizationAccess(
    ds,
    sessionCaller(userId),
    organizationId,
    { roles: MANAGERS, scope: 'write' },
    'create projects',
  );
  return ds.transaction(async (em) => {
    const project = await em.save(em.create(Project, { organizationId, name: trimmed }));
    const key = await em.save(em.create(ProjectKey, { projectId: project.id, publicKey: generateDsnKey() }));
    await recordAudit(em, {
      organizationId,
      ...auditSourceOf({ ...caller, userId }),
      action: 'project.created',
      target: { type: 'project', id: project.id, label: project.name },
      changes: { after: { name: project.name } },
    });
    return { project, key };
  });
}
