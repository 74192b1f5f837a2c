import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { Role } from '../entities';
import { AppError } from '../errors';

export interface BreakGlassOrganization {
  id: string;
  slug: string;
}

/**
 * "Require SSO": after the password was verified, refuses a member (or admin) of an organization
 * that requires single sign-on, since a session is valid in every organization of the user.
 * Owners may still use their password (the break-glass path when the provider is down): the
 * organizations where that happened are returned so the caller records them.
 */
export async function checkPasswordSignIn(
  on: DataSource | EntityManager,
  userId: string,
): Promise<{ breakGlass: BreakGlassOrganization[] }> {
  const rows = await queryRows<{ id: string; slug: string; name: string; role: Role }>(
    on,
    `SELECT o.id, o.slug, o.name, m.role
       FROM sso_configs c
       JOIN memberships m ON m.organization_id = c.organization_id AND m.user_id = $1
       JOIN organizations o ON o.id = c.organization_id
      WHERE c.require_sso
      ORDER BY o.name`,
    [userId],
  );
  const required = rows.find((r) => r.role !== 'owner');
  if (required) {
    throw new AppError(
      'UNAUTHENTICATED',
      `${required.name} requires single sign-on: use “Sign in with SSO” with your work email`,
    );
  }
  return { breakGlass: rows.map((r) => ({ id: r.id, slug: r.slug })) };
}
