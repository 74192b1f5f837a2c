import type { DataSource } from 'typeorm';
import { Organization, Project } from '../entities';
import { AppError } from '../errors';
import { authenticateUploadToken } from './upload-tokens';

/**
 * What an upload token may act on through Sentry's API (`/api/0/`, docs/sentry-compatibility.md):
 * exactly one project and its organization. sentry-cli names both in paths and bodies; every
 * name is checked against this, so a token never reaches another project's data.
 */
export interface UploadTokenScope {
  tokenId: string;
  project: { id: string; number: number; name: string; slug: string };
  organization: { id: string; slug: string; name: string };
}

/**
 * A project's slug in Sentry's API: its name in lower case with runs of other characters as `-`
 * (projects have no slug column; the number and the id are accepted too, see `isTokenProject`).
 */
export function projectSlugOf(name: string): string {
  return (
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'project'
  );
}

/** `Bearer etu_…` → the token's project and organization; 401 (UNAUTHENTICATED) otherwise. */
export async function resolveUploadTokenScope(ds: DataSource, header: string | undefined): Promise<UploadTokenScope> {
  const { tokenId, projectId } = await authenticateUploadToken(ds, header);
  const project = await ds.manager.findOneBy(Project, { id: projectId });
  const organization = project ? await ds.manager.findOneBy(Organization, { id: project.organizationId }) : null;
  // The token's project was deleted under it: the token is as good as revoked.
  if (!project || !organization)
    throw new AppError('UNAUTHENTICATED', 'the project of this upload token no longer exists');
  return {
    tokenId,
    project: { id: project.id, number: project.number, name: project.name, slug: projectSlugOf(project.name) },
    organization: { id: organization.id, slug: organization.slug, name: organization.name },
  };
}

/** Whether `ref` (a slug, the number, or the id, as sentry-cli may send any) names the token's project. */
export function isTokenProject(scope: UploadTokenScope, ref: string | number): boolean {
  const text = String(ref).trim();
  if (text === '') return false;
  return (
    text.toLowerCase() === scope.project.slug ||
    text === String(scope.project.number) ||
    text.toLowerCase() === scope.project.id
  );
}

/**
 * 403 (FORBIDDEN) unless the organization slug, and each project named, belong to the token:
 * a token of one project must not learn whether another organization or project exists.
 */
export function requireTokenPath(
  scope: UploadTokenScope,
  path: { organization?: string; projects?: readonly (string | number)[] },
): void {
  if (path.organization !== undefined && path.organization.toLowerCase() !== scope.organization.slug.toLowerCase()) {
    throw new AppError(
      'FORBIDDEN',
      `this token belongs to organization "${scope.organization.slug}", not "${path.organization}"`,
    );
  }
  for (const p of path.projects ?? []) {
    if (!isTokenProject(scope, p)) {
      throw new AppError(
        'FORBIDDEN',
        `this token belongs to project "${scope.project.slug}" (number ${scope.project.number}), not "${String(p)}"`,
      );
    }
  }
}
