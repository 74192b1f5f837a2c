import {
  checkPasswordResetToken,
  normalizeEmail,
  passwordResetLink,
  renderPasswordResetEmail,
  requestPasswordReset,
  resetPassword,
} from '@tracker/core';
import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { emailKey, throttled } from '../../auth/throttled';
import { sendInvitationEmail as sendEmail } from '../member/invitation-mailer';

@ObjectType({ description: 'What a reset request did, the same whether or not the email has an account.' })
export class PasswordResetRequestType {
  @Field(() => Boolean, {
    description:
      'True when this installation sends email: a link was sent if the address has an account. False: no email ' +
      'is sent at all; ask the operator (`npm run tracker -- user:reset-password <email>`).',
  })
  emailConfigured: boolean;
}

@ObjectType()
export class PasswordResetLinkType {
  @Field(() => String, { description: 'The account the link resets.' })
  email: string;
}

@Resolver()
export class PasswordResetResolver {
  @Mutation(() => PasswordResetRequestType, {
    description:
      'Signed out. Emails a reset link (single use, 1 hour; a newer request withdraws older links) when the address ' +
      'has an account; the answer is the same when it has none. Throttled per address and per email.',
  })
  async requestPasswordReset(
    @Arg('email', () => String) email: string,
    @Ctx() ctx: Context,
  ): Promise<PasswordResetRequestType> {
    const smtp = ctx.config.smtp;
    normalizeEmail(email); // bad input: BAD_USER_INPUT, not counted
    await throttled(
      ctx,
      'reset',
      emailKey(email),
      async () => {
        if (!smtp) return; // nothing to send: the operator makes links
        const request = await requestPasswordReset(ctx.ds, email, ctx.clock(), true);
        if (!request) return;
        const message = renderPasswordResetEmail({
          link: passwordResetLink(ctx.config.publicUrl, request.token),
          expiresAt: request.expiresAt,
        });
        // Sent after answering: the time to answer must not depend on whether an account exists.
        void sendEmail(smtp, request.user.email, message).catch((err: unknown) =>
          ctx.log?.error({ err, userId: request.user.id }, 'password reset email failed'),
        );
      },
      { countSuccess: true },
    );
    return { emailConfigured: !!smtp };
  }

  @Query(() => PasswordResetLinkType, {
    nullable: true,
    description: 'The account a reset link is for; null when the link is unknown, used, withdrawn or expired.',
  })
  async passwordReset(
    @Arg('token', () => String) token: string,
    @Ctx() ctx: Context,
  ): Promise<PasswordResetLinkType | null> {
    try {
      return await checkPasswordResetToken(ctx.ds, token, ctx.clock());
    } catch {
      return null;
    }
  }

  @Mutation(() => Boolean, {
    description:
      'Sets a new password with a reset link and signs out every session of the account (then sign in). ' +
      'Guessing links is throttled per client address.',
  })
  async resetPassword(
    @Arg('token', () => String) token: string,
    @Arg('newPassword', () => String) newPassword: string,
    @Ctx() ctx: Context,
  ): Promise<boolean> {
    const r = await throttled(
      ctx,
      'reset',
      `link:${String(token).slice(0, 80)}`,
      () => resetPassword(ctx.ds, token, newPassword, ctx.clock(), ctx.origin),
      {
        isFailure: (err) => (err as { code?: string }).code === 'NOT_FOUND',
        clearOnSuccess: false,
      },
    );
    ctx.log?.info({ userId: r.user.id, revokedSessions: r.revokedSessions, tookOver: r.tookOver }, 'password reset');
    return true;
  }
}
