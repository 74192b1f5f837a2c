import { AppError, organizationsRequiringTwoFactor } from '@tracker/core';
import type { MiddlewareFn } from 'type-graphql';
import type { Context } from '../context';

/** What a person who must enrol can still do: see who they are, enrol, sign out, change the password. */
export const ALLOWED_BEFORE_ENROLMENT: ReadonlySet<string> = new Set([
  'viewer',
  'twoFactor',
  'startTwoFactorEnrolment',
  'confirmTwoFactor',
  'logout',
  'changePassword',
  'plans',
]);

const pending = new WeakMap<Context, Promise<string[]>>();

/** Organizations that require two-factor of this session's user, who has none (cached per request). */
export function enrolmentPendingFor(ctx: Context): Promise<string[]> {
  const principal = ctx.principal;
  if (!principal?.sessionId || principal.user.totpSecret) return Promise.resolve([]);
  if (principal.twoFactorPending) return Promise.resolve([...principal.twoFactorPending]);
  let p = pending.get(ctx);
  if (!p) pending.set(ctx, (p = organizationsRequiringTwoFactor(ctx.ds, principal.user)));
  return p;
}

/**
 * "Require two-factor" of an organization (decision 059): a **session** of a member without
 * two-factor may run only the fields above until they enrol; everything else is FORBIDDEN with the
 * way out. Every root field of every module goes through this one global middleware. API tokens
 * are not affected: two-factor guards how a person signs in, and a token is created from a
 * session that already passed it (docs/accounts.md).
 */
export const twoFactorGuard: MiddlewareFn<Context> = async ({ context, info }, next) => {
  if (info.path.prev !== undefined) return next();
  if (ALLOWED_BEFORE_ENROLMENT.has(info.fieldName)) return next();
  if ((await enrolmentPendingFor(context)).length > 0) {
    throw new AppError(
      'FORBIDDEN',
      'An organization you belong to requires two-factor authentication: set it up at /account/two-factor first',
    );
  }
  return next();
};
