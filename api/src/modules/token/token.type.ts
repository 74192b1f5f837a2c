import type { ApiToken } from '@tracker/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';

export enum ApiScopeEnum {
  READ = 'read',
  WRITE = 'write',
  ADMIN = 'admin',
}
registerEnumType(ApiScopeEnum, {
  name: 'ApiScope',
  description:
    'READ runs queries; WRITE also mutations; ADMIN also the admin mutations (members, tokens, deletes, keys, alerts, billing).',
});

@ObjectType('ApiToken', {
  description: 'A personal API token: acts as its user, within its scopes. Never shows the secret.',
})
export class ApiTokenType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  name: string;

  @Field(() => [ApiScopeEnum])
  scopes: ApiScopeEnum[];

  @Field(() => String, { description: 'The first characters of the secret (eta_…), to recognise it.' })
  prefix: string;

  @Field(() => String)
  createdAt: string;

  @Field(() => String, { nullable: true, description: 'Updated at most once a minute.' })
  lastUsedAt: string | null;

  @Field(() => String, { nullable: true })
  revokedAt: string | null;
}

export function toApiTokenType(t: ApiToken): ApiTokenType {
  return {
    id: t.id,
    name: t.name,
    scopes: t.scopes as string[] as ApiScopeEnum[],
    prefix: t.tokenPrefix,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
  };
}

@ObjectType('CreatedApiToken')
export class CreatedApiTokenType {
  @Field(() => String, {
    description: 'The secret (eta_…). Store it now: it is never shown again. Send it as Authorization: Bearer <token>.',
  })
  token: string;

  @Field(() => ApiTokenType)
  apiToken: ApiTokenType;
}
