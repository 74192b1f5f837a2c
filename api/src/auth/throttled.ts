import { AppError, isAppError, refusalError, type ThrottleAction } from '@tracker/core';
import type { Context } from '../context';
import { rateLimitedError } from '../format-error';

/**
 * Runs a guess (a password, a 2FA code, a reset request, an invitation) under the sign-in
 * throttle: refused before it runs when the client address (HTTP 429, Retry-After) or the account
 * (RATE_LIMITED, with the time to retry in the message) must wait; `isFailure` says which errors
 * count as a failed guess (bad input does not: it changes nothing and is no guess). A success
 * ends the account's count when `clearOnSuccess`.
 */
export async function throttled<T>(
  ctx: Context,
  action: ThrottleAction,
  account: string,
  attempt: () => Promise<T>,
  options: { isFailure?: (err: unknown) => boolean; clearOnSuccess?: boolean; countSuccess?: boolean } = {},
): Promise<T> {
  const refusal = await ctx.throttle.check(action, account, ctx.clientAddress);
  if (refusal) {
    ctx.log?.warn({ action, scope: refusal.scope, ip: ctx.clientAddress, retryAfter: refusal.retryAfter }, 'auth throttle refused an attempt');
    throw refusal.scope === 'address' ? rateLimitedError(refusalError(refusal)) : refusalError(refusal);
  }
  const isFailure = options.isFailure ?? ((err) => isAppError(err) && err.code === 'UNAUTHENTICATED');
  let result: T;
  try {
    result = await attempt();
  } catch (err) {
    if (isFailure(err)) await ctx.throttle.fail(action, account, ctx.clientAddress);
    throw err;
  }
  // A reset request "succeeds" whatever the email: each one is counted, so they cannot be flooded.
  if (options.countSuccess) await ctx.throttle.fail(action, account, ctx.clientAddress);
  else if (options.clearOnSuccess !== false) await ctx.throttle.succeed(action, account);
  return result;
}

/** The throttle's account key for an email as typed: normalized the way accounts store it. */
export const emailKey = (email: string) => String(email ?? '').trim().toLowerCase().slice(0, 320);

export { AppError };
