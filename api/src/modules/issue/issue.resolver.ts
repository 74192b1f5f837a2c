import {
  AppError,
  findIssueForUser,
  listIssues,
  reopenIssue,
  requireProjectForUser,
  resolveIssues,
  snoozeIssue,
} from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requirePrincipal, type Context } from '../../context';
import { FeedbackType, toFeedbackType } from './feedback.type';
import { ReleaseType, toReleaseType } from '../release/release.type';
import {
  EventType,
  IssueConnection,
  IssueReleaseType,
  IssueStatusEnum,
  IssueType,
  toEventType,
  toIssueType,
} from './issue.type';

@Resolver(() => IssueType)
export class IssueResolver {
  @Query(() => IssueConnection, { description: 'Most recently seen first. At most 100 per page.' })
  async issues(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('status', () => IssueStatusEnum, { nullable: true }) status: IssueStatusEnum | null,
    @Arg('first', () => Int, { defaultValue: 25 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: Context,
  ): Promise<IssueConnection> {
    const { user } = requirePrincipal(ctx);
    await requireProjectForUser(ctx.ds, user.id, projectId);
    const page = await listIssues(ctx.ds, { projectId, status: status ?? undefined, first, after });
    const nodes = page.issues.map(toIssueType);
    return {
      nodes,
      edges: nodes.map((node, i) => ({ node, cursor: page.cursors[i] })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.cursors.at(-1) ?? null },
      totalCount: page.totalCount,
    };
  }

  @Query(() => IssueType, { nullable: true, description: 'Null when missing or not yours.' })
  async issue(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<IssueType | null> {
    const { user } = requirePrincipal(ctx);
    const issue = await findIssueForUser(ctx.ds, user.id, id);
    return issue ? toIssueType(issue) : null;
  }

  @FieldResolver(() => EventType, { nullable: true })
  async latestEvent(@Root() issue: IssueType, @Ctx() ctx: Context): Promise<EventType | null> {
    const event = await ctx.loaders.latestEvent.load(issue.id);
    return event ? toEventType(event) : null;
  }

  @FieldResolver(() => [FeedbackType], { description: 'Newest first; at most 100.' })
  async feedback(@Root() issue: IssueType, @Ctx() ctx: Context): Promise<FeedbackType[]> {
    const feedback = await ctx.loaders.feedbackByIssue.load(issue.id);
    return feedback.map(toFeedbackType);
  }

  @FieldResolver(() => ReleaseType, {
    nullable: true,
    description: "The project's newest release when the issue was resolved; null when it had none.",
  })
  async resolvedInRelease(@Root() issue: IssueType, @Ctx() ctx: Context): Promise<ReleaseType | null> {
    if (!issue.resolvedInReleaseId || issue.status !== IssueStatusEnum.RESOLVED) return null;
    const release = await ctx.loaders.releaseById.load(issue.resolvedInReleaseId);
    return release ? toReleaseType(release) : null;
  }

  @FieldResolver(() => [IssueReleaseType], {
    description: 'Releases its events carried, per environment; latest first.',
  })
  async releases(@Root() issue: IssueType, @Ctx() ctx: Context): Promise<IssueReleaseType[]> {
    const rows = await ctx.loaders.releasesByIssue.load(issue.id);
    return rows.map((r) => ({
      version: r.release,
      environment: r.environment,
      firstSeen: r.firstSeen.toISOString(),
      lastSeen: r.lastSeen.toISOString(),
      eventCount: r.eventCount,
    }));
  }

  @Mutation(() => IssueType, { description: "Resolved in the project's newest release. Already resolved: unchanged." })
  async resolveIssue(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<IssueType> {
    const { user } = requirePrincipal(ctx);
    const [issue] = await resolveIssues(ctx.ds, user.id, [id]);
    if (!issue) throw new AppError('NOT_FOUND', 'Issue not found');
    return toIssueType(issue);
  }

  @Mutation(() => [IssueType], {
    description: 'Bulk resolve (at most 100). Issues not found or not yours are left out.',
  })
  async resolveIssues(@Arg('ids', () => [ID]) ids: string[], @Ctx() ctx: Context): Promise<IssueType[]> {
    const { user } = requirePrincipal(ctx);
    return (await resolveIssues(ctx.ds, user.id, ids)).map(toIssueType);
  }

  @Mutation(() => IssueType, {
    description: 'Until an ISO 8601 time in the future; the next event after it reopens the issue.',
  })
  async snoozeIssue(
    @Arg('id', () => ID) id: string,
    @Arg('until', () => String) until: string,
    @Ctx() ctx: Context,
  ): Promise<IssueType> {
    const { user } = requirePrincipal(ctx);
    const time = new Date(until);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(until) || Number.isNaN(time.getTime())) {
      throw new AppError('BAD_USER_INPUT', 'until: must be an ISO 8601 date-time');
    }
    return toIssueType(await snoozeIssue(ctx.ds, user.id, id, time));
  }

  @Mutation(() => IssueType, { description: 'Back to open (not a regression).' })
  async reopenIssue(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<IssueType> {
    const { user } = requirePrincipal(ctx);
    return toIssueType(await reopenIssue(ctx.ds, user.id, id));
  }
}
