import { listFeedback } from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import { FeedbackType, toFeedbackType } from '../issue/feedback.type';
import { EventType, toEventType } from '../issue/event.type';
import { IssueType, toIssueType } from '../issue/issue.type';
import { FeedbackConnection } from './feedback-connection.type';
import { feedbackLoaders } from './feedback.loaders';

/** The User feedback page, and the links from each feedback to its event and issue. */
@Resolver(() => FeedbackType)
export class FeedbackResolver {
  @Query(() => FeedbackConnection, {
    description: 'Newest first; optionally one issue of the project. At most 100 per page.',
  })
  async feedback(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('issueId', () => ID, { nullable: true }) issueId: string | null,
    @Arg('first', () => Int, { defaultValue: 25 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: Context,
  ): Promise<FeedbackConnection> {
    const page = await listFeedback(ctx.ds, requireCaller(ctx), { projectId, issueId, first, after });
    const nodes = page.feedback.map(toFeedbackType);
    return {
      nodes,
      edges: nodes.map((node, i) => ({ node, cursor: page.cursors[i] })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.cursors.at(-1) ?? null },
      totalCount: page.totalCount,
    };
  }

  @FieldResolver(() => EventType, {
    nullable: true,
    description:
      'The event it names, once stored; null when it named none, or the event has not arrived or was purged.',
  })
  async event(@Root() feedback: FeedbackType, @Ctx() ctx: Context): Promise<EventType | null> {
    if (!feedback.eventId) return null;
    const event = await feedbackLoaders(ctx).event.load({ projectId: feedback.projectId, eventId: feedback.eventId });
    return event ? toEventType(event) : null;
  }

  @FieldResolver(() => IssueType, { nullable: true, description: "The event's issue; null until the event is stored." })
  async issue(@Root() feedback: FeedbackType, @Ctx() ctx: Context): Promise<IssueType | null> {
    if (!feedback.issueId) return null;
    const issue = await feedbackLoaders(ctx).issue.load({ projectId: feedback.projectId, issueId: feedback.issueId });
    return issue ? toIssueType(issue) : null;
  }
}
