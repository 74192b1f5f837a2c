import { logIn, logOut, signUp, type Organization, type User } from '@tracker/core';
import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requirePrincipal, type Context } from '../../context';
import { OrganizationType } from '../organization/organization.type';
import { AuthPayload, UserType } from './auth.type';

const toUser = (u: User): UserType => ({ id: u.id, email: u.email });
const toOrganization = (o: Organization): OrganizationType => ({ id: o.id, slug: o.slug, name: o.name, plan: o.plan });

@Resolver(() => UserType)
export class AuthResolver {
  @Query(() => UserType, { nullable: true, description: 'The signed-in user; null when signed out.' })
  viewer(@Ctx() ctx: Context): UserType | null {
    return ctx.principal ? toUser(ctx.principal.user) : null;
  }

  @FieldResolver(() => [OrganizationType])
  async organizations(@Root() user: UserType, @Ctx() ctx: Context): Promise<OrganizationType[]> {
    const { user: me } = requirePrincipal(ctx);
    // A user's organizations are visible to that user only.
    if (me.id !== user.id) return [];
    return (await ctx.loaders.organizationsByUser.load(user.id)).map(toOrganization);
  }

  @Mutation(() => AuthPayload, { description: 'Creates an account, its first organization and a session.' })
  async signup(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Arg('organizationName', () => String) organizationName: string,
    @Ctx() ctx: Context,
  ): Promise<AuthPayload> {
    const r = await signUp(ctx.ds, { email, password, organizationName }, ctx.config.defaultPlan);
    ctx.principal = { user: r.user, sessionId: r.sessionId };
    return { token: r.token, user: toUser(r.user), organization: toOrganization(r.organization) };
  }

  @Mutation(() => AuthPayload)
  async login(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Ctx() ctx: Context,
  ): Promise<AuthPayload> {
    const r = await logIn(ctx.ds, email, password);
    ctx.principal = { user: r.user, sessionId: r.sessionId };
    return { token: r.token, user: toUser(r.user), organization: toOrganization(r.organization) };
  }

  @Mutation(() => Boolean, { description: 'Revokes the session used for this request.' })
  async logout(@Ctx() ctx: Context): Promise<boolean> {
    const { sessionId } = requirePrincipal(ctx);
    await logOut(ctx.ds, sessionId);
    return true;
  }
}
