import { readMemberUsage } from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import { OrganizationType } from '../organization/organization.type';
import { toUsageType, UsageType } from './usage.type';

/** Usage and remaining quota (issue 5): any member may read it; anyone else gets NOT_FOUND. */
@Resolver(() => OrganizationType)
export class UsageResolver {
  @Query(() => UsageType, {
    description: "Any member. The organization's usage this month against its plan; NOT_FOUND for anyone else.",
  })
  async usage(@Arg('organizationId', () => ID) organizationId: string, @Ctx() ctx: Context): Promise<UsageType> {
    return toUsageType(await readMemberUsage(ctx.ds, ctx.usage, requireCaller(ctx), organizationId));
  }

  // Checked again here: an organization can reach the caller in a payload before or after their
  // membership (acceptInvitation, signup), and usage is for members only.
  @FieldResolver(() => UsageType, { name: 'usage', description: 'Any member: the same as the `usage` query.' })
  async organizationUsage(@Root() org: OrganizationType, @Ctx() ctx: Context): Promise<UsageType> {
    return this.usage(org.id, ctx);
  }
}
