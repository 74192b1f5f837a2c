import { findOrganization } from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import { ProjectType, toProjectType } from '../project/project.type';
import { OrganizationType, toOrganizationType } from './organization.type';

@Resolver(() => OrganizationType)
export class OrganizationResolver {
  @Query(() => OrganizationType, { nullable: true, description: 'Null when missing or not yours.' })
  async organization(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<OrganizationType | null> {
    const org = await findOrganization(ctx.ds, requireCaller(ctx), id);
    return org ? toOrganizationType(org) : null;
  }

  @FieldResolver(() => [ProjectType])
  async projects(@Root() org: OrganizationType, @Ctx() ctx: Context): Promise<ProjectType[]> {
    // Only reachable through `viewer` and `organization`, so the organization is already one of the caller's.
    const projects = await ctx.loaders.projectsByOrganization.load(org.id);
    return Promise.all(projects.map((p) => toProjectType(ctx, p)));
  }
}
