import { callerOf, findProjectsWithSecretsShown } from '@tracker/core';
import DataLoader from 'dataloader';
import type { MiddlewareFn } from 'type-graphql';
import type { Context } from '../context';
import { SENSITIVE_FIELDS } from './secret-policy';

// Per request, so a list of rules costs one membership query, not one per field.
const shownProjects = new WeakMap<Context, DataLoader<string, boolean>>();

/**
 * Whether the caller sees the project's secrets in full: core's rule (access/rules.ts
 * `canSeeSecrets`: owners and admins with a session or an `admin` token), batched per request.
 */
export async function canSeeSecrets(ctx: Context, projectId: string): Promise<boolean> {
  const principal = ctx.principal;
  if (!principal) return false;
  let loader = shownProjects.get(ctx);
  if (!loader) {
    const caller = callerOf(principal);
    loader = new DataLoader(async (ids) => {
      const shown = await findProjectsWithSecretsShown(ctx.ds, caller, ids);
      return ids.map((id) => shown.has(id));
    });
    shownProjects.set(ctx, loader);
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
