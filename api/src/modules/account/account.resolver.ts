import {
  AppError,
  cancelEmailChange,
  confirmEmailChange,
  findPendingEmail,
  listSessions,
  requestEmailChange,
  revokeOtherSessions,
  revokeSession,
} from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { nowOf, requirePrincipal, requireSession, type Context } from '../../context';
import { toUserType, UserType } from '../auth/auth.type';
import { EmailChangeResultType, SessionType } from './account.type';
import { emailChangeLink, sendEmailChangeEmail } from './email-change-mailer';

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The signed-in user's own account: sessions and email. Nobody else's is reachable here. */
@Resolver(() => UserType)
export class AccountResolver {
  @Query(() => [SessionType], { description: 'Your live sessions (not signed out, not expired), newest first.' })
  async sessions(@Ctx() ctx: Context): Promise<SessionType[]> {
    const { user, sessionId } = requirePrincipal(ctx);
    return (await listSessions(ctx.ds, user.id, nowOf(ctx))).map((s) => ({
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
      current: s.id === sessionId,
    }));
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'A new email waiting for its confirmation link; yours only (null for anyone else).',
  })
  async pendingEmail(@Root() user: UserType, @Ctx() ctx: Context): Promise<string | null> {
    const { user: me } = requirePrincipal(ctx);
    if (me.id !== user.id) return null;
    return findPendingEmail(ctx.ds, user.id, nowOf(ctx));
  }

  @Mutation(() => Boolean, { description: 'Sessions only. Signs out one of your sessions.' })
  async revokeSession(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<boolean> {
    const { user } = requireSession(ctx);
    await revokeSession(ctx.ds, user.id, id);
    return true;
  }

  @Mutation(() => Int, {
    description: 'Sessions only. "Sign out everywhere else": every session of yours but this one; answers how many.',
  })
  async revokeOtherSessions(@Ctx() ctx: Context): Promise<number> {
    const { user, sessionId } = requireSession(ctx);
    const revoked = await revokeOtherSessions(ctx.ds, user.id, sessionId);
    ctx.log?.info({ userId: user.id, revokedSessions: revoked }, 'other sessions signed out');
    return revoked;
  }

  @Mutation(() => EmailChangeResultType, {
    description:
      'Sessions only. Checks the current password, then: with SMTP, emails a confirmation link to the new address ' +
      '(the change happens when it is opened, within 24 hours); without SMTP, changes the email at once.',
  })
  async changeEmail(
    @Arg('currentPassword', () => String) currentPassword: string,
    @Arg('newEmail', () => String) newEmail: string,
    @Ctx() ctx: Context,
  ): Promise<EmailChangeResultType> {
    const { user } = requireSession(ctx);
    const smtp = ctx.config.smtp;
    const r = await requestEmailChange(ctx.ds, {
      userId: user.id,
      currentPassword,
      newEmail,
      confirmByEmail: smtp !== undefined,
      now: nowOf(ctx),
    });
    if (r.changed) {
      ctx.log?.info({ userId: user.id }, 'email changed (no SMTP: without confirmation)');
      return { user: toUserType(r.user), changed: true, pendingEmail: null };
    }
    try {
      const link = emailChangeLink(ctx.config.publicUrl, r.token);
      await sendEmailChangeEmail(smtp!, { to: r.newEmail, oldEmail: r.user.email, link, expiresAt: r.expiresAt });
    } catch (err) {
      // Nobody could confirm it: withdraw it rather than leave a change no one can complete.
      await cancelEmailChange(ctx.ds, user.id);
      ctx.log?.warn({ userId: user.id, error: errorMessage(err) }, 'email change: confirmation not sent');
      throw new AppError('UNAVAILABLE', 'The confirmation email could not be sent: try again later');
    }
    return { user: toUserType(r.user), changed: false, pendingEmail: r.newEmail };
  }

  @Mutation(() => UserType, {
    description:
      'Completes an email change from the link sent to the new address. No sign-in needed: the token is the capability. Single use.',
  })
  async confirmEmailChange(@Arg('token', () => String) token: string, @Ctx() ctx: Context): Promise<UserType> {
    const user = await confirmEmailChange(ctx.ds, token, nowOf(ctx));
    ctx.log?.info({ userId: user.id }, 'email change confirmed');
    return toUserType(user);
  }
}
