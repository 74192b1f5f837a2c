import {
  ALL_SCOPES,
  AppError,
  changePassword,
  completeTwoFactorSignIn,
  logIn,
  logOut,
  organizationsRequiringTwoFactor,
  readSignInChallenge,
  signInWithPassword,
  type User,
} from '@tracker/core';
import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requirePrincipal, requireSession, type Context } from '../../context';
import { OrganizationType, toOrganizationType } from '../organization/organization.type';
import { emailKey, throttled } from '../../auth/throttled';
import { enrolmentPendingFor } from '../../auth/two-factor-guard';
import { AuthPayload, SignInResultType, toUserType, UserType } from './auth.type';

/** The new session is this request's principal from now on (for nested fields such as `user { organizations }`). */
export function adoptSession(ctx: Context, user: User, sessionId: string): void {
  ctx.principal = { user, sessionId, apiTokenId: null, scopes: ALL_SCOPES };
}

@Resolver(() => UserType)
export class AuthResolver {
  @Query(() => UserType, { nullable: true, description: 'The signed-in user; null when signed out.' })
  viewer(@Ctx() ctx: Context): UserType | null {
    return ctx.principal ? toUserType(ctx.principal.user) : null;
  }

  @FieldResolver(() => [OrganizationType], {
    description: 'The organizations the user is a member of, oldest membership first.',
  })
  async organizations(@Root() user: UserType, @Ctx() ctx: Context): Promise<OrganizationType[]> {
    const { user: me } = requirePrincipal(ctx);
    // A user's organizations are visible to that user only.
    if (me.id !== user.id) return [];
    const organizations = (await ctx.loaders.organizationsByUser.load(user.id)).map(toOrganizationType);
    // Not even the names of projects of an organization that requires two-factor, before enrolment.
    const pending = new Set(await enrolmentPendingFor(ctx));
    return organizations.filter((o) => !pending.has(o.id));
  }

  @FieldResolver(() => Boolean, {
    description: 'An organization of the user requires two-factor and the user has none: enrol at /account/two-factor.',
  })
  async twoFactorEnrolmentRequired(@Root() user: UserType, @Ctx() ctx: Context): Promise<boolean> {
    const { user: me } = requirePrincipal(ctx);
    if (me.id !== user.id || !ctx.principal?.sessionId) return false;
    return (await enrolmentPendingFor(ctx)).length > 0;
  }

  @Mutation(() => AuthPayload)
  async login(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Ctx() ctx: Context,
  ): Promise<AuthPayload> {
    const r = await throttled(ctx, 'sign-in', emailKey(email), () => logIn(ctx.ds, email, password, ctx.origin));
    adoptSession(ctx, r.user, r.sessionId);
    // Issue 32: an owner's password sign-in to an organization that requires SSO (break-glass).
    // The audit log (part 4) records it here, one row per organization, once core/src/audit exists.
    for (const org of r.breakGlass) {
      ctx.log?.warn(
        { userId: r.user.id, organizationId: org.id, organization: org.slug },
        'break-glass: owner signed in with a password to an organization that requires SSO',
      );
    }
    return {
      token: r.token,
      user: toUserType(r.user),
      organization: r.organization ? toOrganizationType(r.organization) : null,
    };
  }

  @Mutation(() => SignInResultType, {
    description:
      'Sign-in with a password. Answers a session, or, for an account with two-factor on, a challenge to pass to ' +
      'signInWithTwoFactor with a code. Throttled per account and per client address (docs/accounts.md).',
  })
  async signIn(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Ctx() ctx: Context,
  ): Promise<SignInResultType> {
    const r = await throttled(ctx, 'sign-in', emailKey(email), () =>
      signInWithPassword(ctx.ds, email, password, ctx.clock(), ctx.origin),
    );
    if (r.kind === 'two-factor')
      return { session: null, twoFactorChallenge: r.challenge, twoFactorEnrolmentRequired: false };
    adoptSession(ctx, r.user, r.sessionId);
    return {
      session: {
        token: r.token,
        user: toUserType(r.user),
        organization: r.organization ? toOrganizationType(r.organization) : null,
      },
      twoFactorChallenge: null,
      twoFactorEnrolmentRequired: (await organizationsRequiringTwoFactor(ctx.ds, r.user)).length > 0,
    };
  }

  @Mutation(() => AuthPayload, {
    description:
      'The code step of signIn: a 6-digit code (each accepted once) or a recovery code (single use). ' +
      '5 wrong codes lock two-factor sign-in for the account for 15 minutes.',
  })
  async signInWithTwoFactor(
    @Arg('challenge', () => String) challenge: string,
    @Arg('code', () => String) code: string,
    @Ctx() ctx: Context,
  ): Promise<AuthPayload> {
    const c = await readSignInChallenge(ctx.ds, challenge, ctx.clock());
    const r = await throttled(ctx, 'two-factor', c.user.id, async () => {
      const done = await completeTwoFactorSignIn(ctx.ds, c, code, ctx.clock(), ctx.origin);
      if (!done) throw new AppError('UNAUTHENTICATED', 'code: wrong or already used code');
      return done;
    });
    adoptSession(ctx, r.user, r.sessionId);
    ctx.log?.info({ userId: r.user.id, recoveryCode: r.usedRecoveryCode }, 'signed in with two-factor');
    return {
      token: r.token,
      user: toUserType(r.user),
      organization: r.organization ? toOrganizationType(r.organization) : null,
    };
  }

  @Mutation(() => Boolean, { description: 'Revokes the session used for this request (sessions only).' })
  async logout(@Ctx() ctx: Context): Promise<boolean> {
    const { sessionId } = requireSession(ctx);
    await logOut(ctx.ds, sessionId);
    return true;
  }

  @Mutation(() => AuthPayload, {
    description:
      'Sessions only. Checks the current password, sets the new one and signs out every session of the user, ' +
      'this one included: the answer carries a fresh session token to use from now on. API tokens keep working ' +
      'unless revokeApiTokens is true.',
  })
  async changePassword(
    @Arg('currentPassword', () => String) currentPassword: string,
    @Arg('newPassword', () => String) newPassword: string,
    @Arg('revokeApiTokens', () => Boolean, { defaultValue: false }) revokeApiTokens: boolean,
    @Ctx() ctx: Context,
  ): Promise<AuthPayload> {
    const { user } = requireSession(ctx);
    const r = await changePassword(ctx.ds, { userId: user.id, currentPassword, newPassword, revokeApiTokens });
    adoptSession(ctx, r.user, r.sessionId);
    ctx.log?.info(
      { userId: user.id, revokedSessions: r.revokedSessions, revokedApiTokens: r.revokedApiTokens },
      'password changed; sessions revoked',
    );
    return {
      token: r.token,
      user: toUserType(r.user),
      organization: r.organization ? toOrganizationType(r.organization) : null,
    };
  }
}
