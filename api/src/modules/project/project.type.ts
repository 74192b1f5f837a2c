import { formatDsn, type Project, type ProjectKey } from '@tracker/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { Context } from '../../context';

@ObjectType({ description: 'A project receives events through its DSN.' })
export class ProjectType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  name: string;

  @Field(() => String, {
    description:
      "Public, write-only key for the SDKs: https://et_<key>@<host>/<projectId>, with the project's newest enabled key; empty when every key is disabled.",
  })
  dsn: string;

  @Field(() => ID)
  organizationId: string;
}

export async function toProjectType(ctx: Context, project: Project): Promise<ProjectType> {
  const key = await ctx.loaders.primaryKey.load(project.id);
  return {
    id: project.id,
    name: project.name,
    organizationId: project.organizationId,
    dsn: key ? formatDsn(ctx.config.publicUrl, key.publicKey, project.id) : '',
  };
}

@ObjectType('ProjectKey', { description: 'A DSN key. Public by design: it can only send events.' })
export class ProjectKeyType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  publicKey: string;

  @Field(() => String)
  dsn: string;

  @Field(() => Boolean)
  enabled: boolean;

  @Field(() => Int, { nullable: true, description: 'Events per second; null = no limit.' })
  rateLimitPerSecond: number | null;

  @Field(() => String)
  createdAt: string;

  @Field(() => String, { nullable: true })
  disabledAt: string | null;
}

export function toProjectKeyType(ctx: Context, key: ProjectKey): ProjectKeyType {
  return {
    id: key.id,
    publicKey: key.publicKey,
    dsn: formatDsn(ctx.config.publicUrl, key.publicKey, key.projectId),
    enabled: key.disabledAt === null,
    rateLimitPerSecond: key.rateLimitPerSecond,
    createdAt: key.createdAt.toISOString(),
    disabledAt: key.disabledAt?.toISOString() ?? null,
  };
}
