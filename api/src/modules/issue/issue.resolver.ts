import { findIssueForUser, listIssues, requireProjectForUser } from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { requirePrincipal, type Context } from '../../context';
import { FeedbackType, toFeedbackType } from './feedback.type';
import { EventType, IssueConnection, IssueStatusEnum, IssueType, toEventType, toIssueType } from './issue.type';

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
}
