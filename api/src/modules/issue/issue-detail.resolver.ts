import { AppError, findEvent, findTagBreakdown, listIssueEvents, MAX_SERIES_HOURS } from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import {
  EventConnection,
  IssueEnvironmentType,
  SeriesPointType,
  SeriesRangeEnum,
  TagBreakdownType,
} from './issue-detail.type';
import { EventType, toEventType } from './event.type';
import { IssueType } from './issue.type';

/** What the issue page shows beyond the list's fields; series and environments batch per request. */
@Resolver(() => IssueType)
export class IssueDetailResolver {
  @Query(() => EventType, {
    nullable: true,
    description: 'One event by its `id` (the UUID the SDK chose or ingest assigned). Null when missing or not yours.',
  })
  async event(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<EventType | null> {
    const event = await findEvent(ctx.ds, requireCaller(ctx), id);
    return event ? toEventType(event) : null;
  }

  @FieldResolver(() => EventConnection, {
    description: 'Newest first, at most 100 per page. For one issue at a time (the issue page), not for lists.',
  })
  async events(
    @Root() issue: IssueType,
    @Arg('first', () => Int, { defaultValue: 25 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: Context,
  ): Promise<EventConnection> {
    const page = await listIssueEvents(ctx.ds, { id: issue.id, eventCount: issue.eventCount }, { first, after });
    const nodes = page.events.map(toEventType);
    return {
      nodes,
      edges: nodes.map((node, i) => ({ node, cursor: page.cursors[i] })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.cursors.at(-1) ?? null },
      totalCount: page.totalCount,
    };
  }

  @FieldResolver(() => [TagBreakdownType], {
    description: "Tag keys of the issue's newest events (at most 10,000), most used first, each with its top values.",
  })
  async tags(@Root() issue: IssueType, @Ctx() ctx: Context): Promise<TagBreakdownType[]> {
    return (await findTagBreakdown(ctx.ds, issue.id)).tags;
  }

  @FieldResolver(() => [SeriesPointType], {
    description: `Events per hour over the last \`hours\` hours (the current one included), oldest first, zero-filled. At most ${MAX_SERIES_HOURS}.`,
  })
  async series(
    @Root() issue: IssueType,
    @Arg('hours', () => Int, { defaultValue: 24 }) hours: number,
    @Ctx() ctx: Context,
  ): Promise<SeriesPointType[]> {
    if (!Number.isInteger(hours) || hours < 1 || hours > MAX_SERIES_HOURS) {
      throw new AppError('BAD_USER_INPUT', `hours: must be between 1 and ${MAX_SERIES_HOURS}`);
    }
    return ctx.loaders.seriesByIssue.load(`${hours}:${issue.id}`);
  }

  @FieldResolver(() => [SeriesPointType], {
    description:
      'Events per bucket over a chart range (SeriesRange: the last hour in 5-minute buckets, 24 hours in hours, ' +
      '7 days in 6-hour buckets, 30 days in days), oldest first, zero-filled, the current bucket included.',
  })
  async eventSeries(
    @Root() issue: IssueType,
    @Arg('range', () => SeriesRangeEnum) range: SeriesRangeEnum,
    @Ctx() ctx: Context,
  ): Promise<SeriesPointType[]> {
    return ctx.loaders.rangeSeriesByIssue.load(`${range}|${issue.id}`);
  }

  @FieldResolver(() => [IssueEnvironmentType], { description: 'Environments its events came from; latest first.' })
  async environments(@Root() issue: IssueType, @Ctx() ctx: Context): Promise<IssueEnvironmentType[]> {
    return (await ctx.loaders.environmentsByIssue.load(issue.id)).map((e) => ({
      environment: e.environment,
      firstSeen: e.firstSeen.toISOString(),
      lastSeen: e.lastSeen.toISOString(),
      eventCount: e.eventCount,
    }));
  }
}
