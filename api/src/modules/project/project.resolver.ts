import { createProject, findProjectForUser } from '@tracker/core';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal, type Context } from '../../context';
import { ProjectType, toProjectType } from './project.type';

@Resolver(() => ProjectType)
export class ProjectResolver {
  @Query(() => ProjectType, { nullable: true, description: 'Null when missing or not yours.' })
  async project(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<ProjectType | null> {
    const { user } = requirePrincipal(ctx);
    const project = await findProjectForUser(ctx.ds, user.id, id);
    return project ? toProjectType(ctx, project) : null;
  }

  @Mutation(() => ProjectType, { description: 'Owners and admins only. Returns the new DSN.' })
  async createProject(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('name', () => String) name: string,
    @Ctx() ctx: Context,
  ): Promise<ProjectType> {
    const { user } = requirePrincipal(ctx);
    const { project } = await createProject(ctx.ds, user.id, organizationId, name);
    return toProjectType(ctx, project);
  }
}
