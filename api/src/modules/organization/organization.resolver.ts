import { findOrganization, renameOrganization, setRequireTwoFactor } from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
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

  @Mutation(() => OrganizationType, { description: 'Owners and admins. The slug stays (it is in links already sent).' })
  async renameOrganization(
    @Arg('id', () => ID) id: string,
    @Arg('name', () => String) name: string,
    @Ctx() ctx: Context,
  ): Promise<OrganizationType> {
    return toOrganizationType(await renameOrganization(ctx.ds, requireCaller(ctx), id, name));
  }

  @Mutation(() => OrganizationType, {
    description:
      'Owners. With required true, members without two-factor must enrol before their sessions see any data; ' +
      'the owner must have two-factor on first. API tokens are not affected.',
  })
  async setOrganizationRequireTwoFactor(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('required', () => Boolean) required: boolean,
    @Ctx() ctx: Context,
  ): Promise<OrganizationType> {
    return toOrganizationType(await setRequireTwoFactor(ctx.ds, requireCaller(ctx), organizationId, required));
  }

  @FieldResolver(() => [ProjectType])
  async projects(@Root() org: OrganizationType, @Ctx() ctx: Context): Promise<ProjectType[]> {
    // Only reachable through `viewer` and `organization`, so the organization is already one of the caller's.
    const projects = await ctx.loaders.projectsByOrganization.load(org.id);
    return Promise.all(projects.map((p) => toProjectType(ctx, p)));
  }
}
