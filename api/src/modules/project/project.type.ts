import { formatDsn, type Project } from '@tracker/core';
import { Field, ID, ObjectType } from 'type-graphql';
import type { Context } from '../../context';

@ObjectType({ description: 'A project receives events through its DSN.' })
export class ProjectType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  name: string;

  @Field(() => String, { description: 'Public, write-only key for the SDKs: https://et_<key>@<host>/<projectId>.' })
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
