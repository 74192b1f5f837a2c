import {
  AppError,
  findOrganizationForAdmin,
  listDeadLettersForAdmin,
  listOrganizationsForAdmin,
  purgeDeadLettersForAdmin,
  readInstanceStatus,
  replayDeadLettersForAdmin,
  requireInstanceAdmin,
  setOrganizationPlanForAdmin,
} from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { nowOf, requireCaller, requirePrincipal, type Context } from '../../context';
import { UserType } from '../auth/auth.type';
import {
  AdminDeadLetterList,
  AdminInstanceType,
  AdminOrganizationConnection,
  AdminPlanChangeType,
  AdminTestEmailType,
  toAdminDeadLetterType,
  toAdminInstanceType,
  toAdminOrganizationType,
} from './admin.type';
import { sendAdminTestEmail } from './test-email';

/**
 * The instance admin's fields (issue 31, decision 051). Every one goes through core's
 * `requireInstanceAdmin` (FORBIDDEN for everyone else), answers counts rather than tenants' data,
 * and needs a signed-in session: the API's scope guard refuses API tokens for them
 * (auth/scope-policy.ts `INSTANCE_ADMIN_FIELDS`).
 */
@Resolver()
export class AdminResolver {
  @Query(() => AdminOrganizationConnection, {
    description: 'Instance admins. Every organization by slug, with plan, member and project counts and usage.',
  })
  async adminOrganizations(
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: Context,
  ): Promise<AdminOrganizationConnection> {
    const page = await listOrganizationsForAdmin(ctx.ds, requireCaller(ctx), ctx.usage, {
      first,
      after,
      now: nowOf(ctx),
    });
    return {
      nodes: page.nodes.map(toAdminOrganizationType),
      totalCount: page.totalCount,
      pageInfo: { hasNextPage: page.endCursor !== null, endCursor: page.endCursor },
    };
  }

  @Query(() => AdminDeadLetterList, { description: 'Instance admins. Jobs the worker set aside, newest first.' })
  async adminDeadLetters(
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<AdminDeadLetterList> {
    const list = await listDeadLettersForAdmin(ctx.ds, requireCaller(ctx), { first });
    return { nodes: list.nodes.map(toAdminDeadLetterType), totalCount: list.totalCount };
  }

  @Query(() => AdminInstanceType, {
    description: 'Instance admins. Version, database and migrations, and whether email and Stripe are configured.',
  })
  async adminInstance(@Ctx() ctx: Context): Promise<AdminInstanceType> {
    const status = await readInstanceStatus(ctx.ds, requireCaller(ctx), ctx.config);
    return toAdminInstanceType(status, ctx.instanceVersion ?? 'unknown');
  }

  @Mutation(() => AdminPlanChangeType, {
    description:
      "Instance admins. Sets an organization's plan at once, recorded in the billing log. CONFLICT when a live " +
      'Stripe subscription sets its plan, unless force.',
  })
  async adminSetOrganizationPlan(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('plan', () => String) plan: string,
    @Arg('force', () => Boolean, { defaultValue: false }) force: boolean,
    @Ctx() ctx: Context,
  ): Promise<AdminPlanChangeType> {
    const caller = requireCaller(ctx);
    const change = await setOrganizationPlanForAdmin(ctx.ds, caller, { organizationId, plan, force });
    // The row as the list shows it, counts included.
    const row = await findOrganizationForAdmin(ctx.ds, caller, ctx.usage, change.organization.id, nowOf(ctx));
    return {
      organization: toAdminOrganizationType(row),
      planBefore: change.planBefore,
      overrodeSubscription: change.overrodeSubscription,
    };
  }

  @Mutation(() => [ID], {
    description: 'Instance admins. Queues dead letters again (ids, or all: true); answers the ids queued.',
  })
  async adminReplayDeadLetters(
    @Arg('ids', () => [ID], { nullable: true }) ids: string[] | null | undefined,
    @Arg('all', () => Boolean, { defaultValue: false }) all: boolean,
    @Ctx() ctx: Context,
  ): Promise<string[]> {
    const caller = requireCaller(ctx);
    await requireInstanceAdmin(ctx.ds, caller, 'replay dead letters');
    const named = ids ?? [];
    if (all === named.length > 0) {
      throw new AppError('BAD_USER_INPUT', 'ids: name the dead letters to replay, or pass all: true (not both)');
    }
    return replayDeadLettersForAdmin(ctx.ds, caller, all ? 'all' : named, ctx.enqueueReplay);
  }

  @Mutation(() => Int, {
    description: 'Instance admins. Deletes dead letters whose last failure is older than that many days (0: all).',
  })
  async adminPurgeDeadLetters(
    @Arg('olderThanDays', () => Int) olderThanDays: number,
    @Ctx() ctx: Context,
  ): Promise<number> {
    return purgeDeadLettersForAdmin(ctx.ds, requireCaller(ctx), olderThanDays);
  }

  @Mutation(() => AdminTestEmailType, {
    description: "Instance admins. Sends one test email to the admin's own address, once; answers the relay's reply.",
  })
  async adminSendTestEmail(@Ctx() ctx: Context): Promise<AdminTestEmailType> {
    const { user } = requirePrincipal(ctx);
    await requireInstanceAdmin(ctx.ds, requireCaller(ctx), 'send a test email');
    return sendAdminTestEmail(ctx.config.smtp, { to: user.email, publicUrl: ctx.config.publicUrl, now: nowOf(ctx) });
  }
}

/** The viewer's own flag, for the dashboard's header link; null for anyone else's user object. */
@Resolver(() => UserType)
export class ViewerAdminResolver {
  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'Whether you are an instance admin (the admin screen). Null on any user but yourself.',
  })
  async isInstanceAdmin(@Root() user: UserType, @Ctx() ctx: Context): Promise<boolean | null> {
    const principal = ctx.principal;
    if (!principal || principal.user.id !== user.id) return null;
    return principal.user.isAdmin === true;
  }
}
