import type { Release, UploadToken } from '@tracker/core';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('Release', { simpleResolvers: true, description: 'One version deployed to one environment.' })
export class ReleaseType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  version: string;

  @Field(() => String)
  environment: string;

  @Field(() => String, { description: 'ISO 8601; registering the version again moves it.' })
  deployedAt: string;

  projectId: string;
}

export function toReleaseType(r: Release): ReleaseType {
  return {
    id: r.id,
    version: r.version,
    environment: r.environment,
    deployedAt: r.deployedAt.toISOString(),
    projectId: r.projectId,
  };
}

@ObjectType('UploadToken', {
  simpleResolvers: true,
  description: 'Uploads source maps and registers releases. The secret is shown only once.',
})
export class UploadTokenType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  name: string;

  @Field(() => String, { description: 'The first characters of the secret, to recognise it.' })
  prefix: string;

  @Field(() => String)
  createdAt: string;

  @Field(() => String, { nullable: true })
  lastUsedAt: string | null;

  @Field(() => String, { nullable: true })
  revokedAt: string | null;
}

export function toUploadTokenType(t: UploadToken): UploadTokenType {
  return {
    id: t.id,
    name: t.name,
    prefix: t.tokenPrefix,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
  };
}

@ObjectType('CreatedUploadToken', { simpleResolvers: true })
export class CreatedUploadTokenType {
  @Field(() => String, { description: 'The secret (etu_…). Store it now: it is never shown again.' })
  token: string;

  @Field(() => UploadTokenType)
  uploadToken: UploadTokenType;
}
