import { completeSsoLogin, deleteSsoSettings, findSsoSettings, saveSsoSettings, startSsoLogin } from '@tracker/core';
import type { SsoRuntime } from '@tracker/core';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import { adoptSession } from '../auth/auth.resolver';
import { AuthPayload, toUserType } from '../auth/auth.type';
import { toOrganizationType } from '../organization/organization.type';
import { SsoSettingsInput, SsoSettingsType, SsoStartType, toSsoSettingsType } from './sso.type';

/** The dashboard's callback route, under the public URL: what owners register at their provider. */
export const callbackUrlOf = (ctx: Context): string => `${ctx.config.publicUrl}/sso/callback`;

const runtimeOf = (ctx: Context): SsoRuntime => ({
  redirectUri: callbackUrlOf(ctx),
  allowPrivateTargets: ctx.config.allowPrivateTargets,
  clock: ctx.clock,
});

@Resolver()
export class SsoResolver {
  @Query(() => SsoSettingsType, { nullable: true, description: 'Owners only. Null when the organization has no SSO.' })
  async ssoSettings(
    @Arg('organizationId', () => ID) organizationId: string,
    @Ctx() ctx: Context,
  ): Promise<SsoSettingsType | null> {
    const s = await findSsoSettings(ctx.ds, requireCaller(ctx), organizationId);
    return s ? toSsoSettingsType(s, callbackUrlOf(ctx)) : null;
  }

  @Mutation(() => SsoSettingsType, {
    description:
      'Owners only, sessions only. Reads the discovery document, then saves the provider, the allowed email ' +
      'domains (each belongs to one organization), the role of new members and "require SSO".',
  })
  async saveSsoSettings(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('input', () => SsoSettingsInput) input: SsoSettingsInput,
    @Ctx() ctx: Context,
  ): Promise<SsoSettingsType> {
    const caller = requireCaller(ctx);
    const s = await saveSsoSettings(ctx.ds, caller, organizationId, input, {
      allowPrivateTargets: ctx.config.allowPrivateTargets,
    });
    ctx.log?.info({ organizationId, userId: caller.userId, requireSso: s.requireSso }, 'sso settings saved');
    return toSsoSettingsType(s, callbackUrlOf(ctx));
  }

  @Mutation(() => Boolean, { description: 'Owners only, sessions only. Turns SSO off; linked accounts stay.' })
  async deleteSsoSettings(
    @Arg('organizationId', () => ID) organizationId: string,
    @Ctx() ctx: Context,
  ): Promise<boolean> {
    const caller = requireCaller(ctx);
    const removed = await deleteSsoSettings(ctx.ds, caller, organizationId);
    ctx.log?.info({ organizationId, userId: caller.userId, removed }, 'sso settings deleted');
    return removed;
  }

  @Mutation(() => SsoStartType, {
    description: "Signed out. Finds the organization by the email's domain and prepares a sign-in with its provider.",
  })
  async startSsoLogin(@Arg('email', () => String) email: string, @Ctx() ctx: Context): Promise<SsoStartType> {
    const started = await startSsoLogin(ctx.ds, email, runtimeOf(ctx));
    return { authorizationUrl: started.authorizationUrl, state: started.state };
  }

  @Mutation(() => AuthPayload, {
    description:
      "Signed out. `parameters` is the callback's query string as the provider sent it (code, state, iss). " +
      'Answers a session, like login.',
  })
  async completeSsoLogin(
    @Arg('parameters', () => String) parameters: string,
    @Ctx() ctx: Context,
  ): Promise<AuthPayload> {
    const r = await completeSsoLogin(ctx.ds, parameters, runtimeOf(ctx), ctx.origin);
    adoptSession(ctx, r.user, r.sessionId);
    ctx.log?.info({ userId: r.user.id, organizationId: r.organization.id, joined: r.joined }, 'sso sign-in');
    return { token: r.token, user: toUserType(r.user), organization: toOrganizationType(r.organization) };
  }
}
