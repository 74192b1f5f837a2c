import type { SsoSettings } from '@tracker/core';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { MemberRoleEnum } from '../member/member.type';

@ObjectType('SsoSettings', { description: "An organization's OpenID Connect provider (owners only)." })
export class SsoSettingsType {
  @Field(() => ID)
  organizationId: string;

  @Field(() => String, { description: "The provider's issuer, as its discovery document names it." })
  issuer: string;

  @Field(() => String)
  clientId: string;

  @Field(() => String, {
    description: 'The client secret is never returned after it is saved: this shows its last 4 characters at most.',
  })
  clientSecretHint: string;

  @Field(() => [String], { description: 'Addresses in these domains may sign in, and join on their first sign-in.' })
  emailDomains: string[];

  @Field(() => MemberRoleEnum, { description: 'The role of a member who joins by signing in (MEMBER or ADMIN).' })
  defaultRole: MemberRoleEnum;

  @Field(() => Boolean, {
    description: 'Members and admins must sign in with SSO; owners keep a password sign-in (break-glass).',
  })
  requireSso: boolean;

  @Field(() => String, { description: 'The redirect URI to register at the provider.' })
  callbackUrl: string;

  @Field(() => String)
  updatedAt: string;
}

@InputType('SsoSettingsInput')
export class SsoSettingsInput {
  @Field(() => String, {
    description: 'The issuer URL; `/.well-known/openid-configuration` is read from it. https only.',
  })
  issuerUrl: string;

  @Field(() => String)
  clientId: string;

  @Field(() => String, { nullable: true, description: 'Required the first time; leave it out to keep the saved one.' })
  clientSecret?: string | null;

  @Field(() => [String])
  emailDomains: string[];

  @Field(() => MemberRoleEnum, { nullable: true, defaultValue: MemberRoleEnum.MEMBER })
  defaultRole?: MemberRoleEnum | null;

  @Field(() => Boolean, { nullable: true, defaultValue: false })
  requireSso?: boolean | null;
}

@ObjectType('SsoStart', { description: 'Where to send the browser to sign in with SSO.' })
export class SsoStartType {
  @Field(() => String)
  authorizationUrl: string;

  @Field(() => String, { description: 'The `state` sent to the provider: keep it to compare on the way back.' })
  state: string;
}

export function toSsoSettingsType(s: SsoSettings, callbackUrl: string): SsoSettingsType {
  return {
    organizationId: s.organizationId,
    issuer: s.issuer,
    clientId: s.clientId,
    clientSecretHint: s.clientSecretHint,
    emailDomains: s.emailDomains,
    defaultRole: s.defaultRole as MemberRoleEnum,
    requireSso: s.requireSso,
    callbackUrl,
    updatedAt: s.updatedAt.toISOString(),
  };
}
