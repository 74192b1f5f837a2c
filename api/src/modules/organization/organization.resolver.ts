import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ProjectType, toProjectType } from '../project/project.type';
import { OrganizationType } from './organization.type';

@Resolver(() => OrganizationType)
export class OrganizationResolver {
  @FieldResolver(() => [ProjectType])
  async projects(@Root() org: OrganizationType, @Ctx() ctx: Context): Promise<ProjectType[]> {
    // Only reachable through `viewer`, so the organization is already one of the caller's.
    const projects = await ctx.loaders.projectsByOrganization.load(org.id);
    return Promise.all(projects.map((p) => toProjectType(ctx, p)));
  }
}
