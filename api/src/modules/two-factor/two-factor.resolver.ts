import {
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  isAppError,
  regenerateRecoveryCodes,
  startTwoFactorEnrolment,
  twoFactorStatus,
} from '@tracker/core';
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal, requireSession, type Context } from '../../context';
import { throttled } from '../../auth/throttled';
import { TwoFactorEnrolmentType, TwoFactorStatusType } from './two-factor.type';

/** A wrong code counts against the account's two-factor lock; a malformed one is bad input and does not. */
const wrongCode = (err: unknown) => isAppError(err) && err.code === 'BAD_USER_INPUT' && /wrong/.test(err.message);

/**
 * Two-factor of the signed-in person (sessions only: an API token must not turn off its owner's
 * second factor). API tokens themselves are unaffected by two-factor (docs/accounts.md).
 */
@Resolver()
export class TwoFactorResolver {
  @Query(() => TwoFactorStatusType, { description: "The signed-in user's two-factor state." })
  async twoFactor(@Ctx() ctx: Context): Promise<TwoFactorStatusType> {
    const { user } = requirePrincipal(ctx);
    const s = await twoFactorStatus(ctx.ds, user.id);
    return { ...s, enabledAt: s.enabledAt?.toISOString() ?? null };
  }

  @Mutation(() => TwoFactorEnrolmentType, {
    description:
      'Step 1: a new secret and its QR code; nothing changes until confirmTwoFactor gets a code from the app.',
  })
  async startTwoFactorEnrolment(@Ctx() ctx: Context): Promise<TwoFactorEnrolmentType> {
    const { user } = requireSession(ctx);
    return startTwoFactorEnrolment(ctx.ds, user.id);
  }

  @Mutation(() => [String], {
    description: 'Step 2: a code from the app turns two-factor on; answers 10 single-use recovery codes, shown once.',
  })
  async confirmTwoFactor(@Arg('code', () => String) code: string, @Ctx() ctx: Context): Promise<string[]> {
    const { user } = requireSession(ctx);
    const codes = await throttled(
      ctx,
      'two-factor',
      user.id,
      () => confirmTwoFactorEnrolment(ctx.ds, user.id, code, ctx.clock(), ctx.origin),
      {
        isFailure: wrongCode,
      },
    );
    ctx.log?.info({ userId: user.id }, 'two-factor enrolled');
    return codes;
  }

  @Mutation(() => Boolean, { description: 'Turns two-factor off; needs a current code or a recovery code.' })
  async disableTwoFactor(@Arg('code', () => String) code: string, @Ctx() ctx: Context): Promise<boolean> {
    const { user } = requireSession(ctx);
    await throttled(
      ctx,
      'two-factor',
      user.id,
      () => disableTwoFactor(ctx.ds, user.id, code, ctx.clock(), ctx.origin),
      {
        isFailure: wrongCode,
      },
    );
    ctx.log?.info({ userId: user.id }, 'two-factor disabled');
    return true;
  }

  @Mutation(() => [String], {
    description: 'New recovery codes (the old ones stop working); needs a current code or a recovery code.',
  })
  async regenerateRecoveryCodes(@Arg('code', () => String) code: string, @Ctx() ctx: Context): Promise<string[]> {
    const { user } = requireSession(ctx);
    return throttled(ctx, 'two-factor', user.id, () => regenerateRecoveryCodes(ctx.ds, user.id, code, ctx.clock()), {
      isFailure: wrongCode,
    });
  }
}
