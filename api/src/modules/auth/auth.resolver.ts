import { ALL_SCOPES, changePassword, logIn, logOut, signUp, type User } from '@tracker/core';
import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requirePrincipal, requireSession, type Context } from '../../context';
import { OrganizationType, toOrganizationType } from '../organization/organization.type';
import { AuthPayload, toUserType, UserType } from './auth.type';

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
    return (await ctx.loaders.organizationsByUser.load(user.id)).map(toOrganizationType);
  }

  @Mutation(() => AuthPayload, { description: 'Creates an account, its first organization and a session.' })
  async signup(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Arg('organizationName', () => String) organizationName: string,
    @Ctx() ctx: Context,
  ): Promise<AuthPayload> {
    const r = await signUp(ctx.ds, { email, password, organizationName }, ctx.config.defaultPlan);
    adoptSession(ctx, r.user, r.sessionId);
    return { token: r.token, user: toUserType(r.user), organization: toOrganizationType(r.organization) };
  }

  @Mutation(() => AuthPayload)
  async login(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Ctx() ctx: Context,
  ): Promise<AuthPayload> {
    const r = await logIn(ctx.ds, email, password, ctx.origin);
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
