import { hasScope } from '@tracker/core';
import DataLoader from 'dataloader';
import type { MiddlewareFn } from 'type-graphql';
import type { Context } from '../context';
import { SENSITIVE_FIELDS } from './secret-policy';

// Per request, so a list of rules costs one membership query, not one per field.
const managedProjects = new WeakMap<Context, DataLoader<string, boolean>>();

/**
 * Whether the caller sees the project's secrets in full: an owner or admin of its organization,
 * with a session or an `admin`-scope API token (what updateAlertRule and the other admin
 * mutations need). Members, and `read` or `write` tokens of anyone, get masks.
 */
export async function canSeeSecrets(ctx: Context, projectId: string): Promise<boolean> {
  const principal = ctx.principal;
  if (!principal || !hasScope(principal.scopes, 'admin')) return false;
  let loader = managedProjects.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const rows: Array<{ id: string }> = await ctx.ds.query(
        `SELECT p.id FROM projects p
           JOIN memberships m ON m.organization_id = p.organization_id
          WHERE p.id = ANY($1::uuid[]) AND m.user_id = $2 AND m.role IN ('owner', 'admin')`,
        [[...ids], principal.user.id],
      );
      const managed = new Set(rows.map((r) => r.id));
      return ids.map((id) => managed.has(id));
    });
    managedProjects.set(ctx, loader);
  }
  return loader.load(projectId);
}

/**
 * The single place secrets are masked: a global type-graphql middleware over every field of
 * every type, so a query reaching a sensitive field by any path (a list, a mutation's answer)
 * is covered. secret-policy.ts says which fields and how.
 */
export const secretGuard: MiddlewareFn<Context> = async ({ root, context, info }, next) => {
  const policy = SENSITIVE_FIELDS.get(`${info.parentType.name}.${info.fieldName}`);
  if (!policy) return next();
  const value: unknown = await next();
  if (typeof value !== 'string') return value;
  return (await canSeeSecrets(context, policy.projectOf(root))) ? value : policy.mask(value);
};
