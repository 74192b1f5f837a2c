import {
  AppError,
  deleteIssue,
  discardIssue,
  findIssue,
  listIssues,
  parseClientTime,
  mergeIssues,
  reopenIssue,
  resolveIssues,
  snoozeIssue,
  unmergeIssue,
} from '@tracker/core';
import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { nowOf, requireCaller, type Context } from '../../context';
import { IssuesArgs } from './issue.inputs';
import { FeedbackType, toFeedbackType } from './feedback.type';
import { ReleaseType, toReleaseType } from '../release/release.type';
import { IssueConnection, IssueReleaseType, IssueStatusEnum, IssueType, toIssueType } from './issue.type';
import { EventType, toEventType } from './event.type';
import { IssueAssignedFilterEnum } from '../activity/activity.type';

@Resolver(() => IssueType)
export class IssueResolver {
  @Query(() => IssueConnection, {
    description:
      "One project's issues, filtered and sorted (most recently seen first by default), at most 100 per page. " +
      'Times are ISO 8601; ranges include their start and exclude their end. `totalCount` counts every issue ' +
      'matching the filters, read in the same snapshot as the page.',
  })
  async issues(@Args(() => IssuesArgs) args: IssuesArgs, @Ctx() ctx: Context): Promise<IssueConnection> {
    const caller = requireCaller(ctx);
    const page = await listIssues(ctx.ds, caller, {
      projectId: args.projectId,
      status: args.status ?? undefined,
      first: args.first,
      after: args.after,
      environment: args.environment,
      release: args.release,
      level: args.level,
      firstSeenFrom: parseTime('firstSeenFrom', args.firstSeenFrom),
      firstSeenTo: parseTime('firstSeenTo', args.firstSeenTo),
      lastSeenFrom: parseTime('lastSeenFrom', args.lastSeenFrom),
      lastSeenTo: parseTime('lastSeenTo', args.lastSeenTo),
      search: args.search,
      assignee:
        args.assigned === IssueAssignedFilterEnum.ME
          ? { userId: caller.userId }
          : args.assigned === IssueAssignedFilterEnum.NONE
            ? { none: true }
            : null,
      sort: args.sort,
      discarded: args.discarded,
    });
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
    const issue = await findIssue(ctx.ds, requireCaller(ctx), id);
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

  @FieldResolver(() => Int, {
    description: 'Merges into this issue that `unmergeIssue` can undo (0: nothing to unmerge).',
  })
  async mergedIssueCount(@Root() issue: IssueType, @Ctx() ctx: Context): Promise<number> {
    return ctx.loaders.mergeCountByIssue.load(issue.id);
  }

  @Mutation(() => IssueType, { description: "Resolved in the project's newest release. Already resolved: unchanged." })
  async resolveIssue(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<IssueType> {
    const [issue] = await resolveIssues(ctx.ds, { caller: requireCaller(ctx), ids: [id], now: nowOf(ctx) });
    if (!issue) throw new AppError('NOT_FOUND', 'Issue not found');
    return toIssueType(issue);
  }

  @Mutation(() => [IssueType], {
    description: 'Bulk resolve (at most 100). Issues not found or not yours are left out.',
  })
  async resolveIssues(@Arg('ids', () => [ID]) ids: string[], @Ctx() ctx: Context): Promise<IssueType[]> {
    return (await resolveIssues(ctx.ds, { caller: requireCaller(ctx), ids, now: nowOf(ctx) })).map(toIssueType);
  }

  @Mutation(() => IssueType, {
    description:
      'Snoozes the issue until one condition, given as exactly one argument: `until` (an ISO 8601 time in the ' +
      'future), `minutes` (for that long), `forEvents` (until that many more events) or `forUsers` (until that ' +
      'many more distinct users). The event that meets it reopens the issue as a regression.',
  })
  async snoozeIssue(
    @Arg('id', () => ID) id: string,
    @Arg('until', () => String, { nullable: true }) until: string | null,
    @Arg('minutes', () => Int, { nullable: true }) minutes: number | null,
    @Arg('forEvents', () => Int, { nullable: true }) forEvents: number | null,
    @Arg('forUsers', () => Int, { nullable: true }) forUsers: number | null,
    @Ctx() ctx: Context,
  ): Promise<IssueType> {
    const caller = requireCaller(ctx);
    return toIssueType(
      await snoozeIssue(ctx.ds, {
        caller,
        id,
        until: until == null ? null : parseClientTime('until', until),
        minutes,
        forEvents,
        forUsers,
        now: nowOf(ctx),
      }),
    );
  }

  @Mutation(() => [IssueType], {
    description:
      'Splits a merged issue back into the issues merged into it: the target first, then each restored issue ' +
      'with its own events, users, counts and state. Issues merged before merges were recorded cannot be split ' +
      '(CONFLICT).',
  })
  async unmergeIssue(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<IssueType[]> {
    return (await unmergeIssue(ctx.ds, { caller: requireCaller(ctx), id, now: nowOf(ctx) })).map(toIssueType);
  }

  @Mutation(() => IssueType, {
    description:
      "discard: true drops the issue's new events at ingest (not stored, no quota used); false restores normal " +
      'intake. Owners and admins.',
  })
  async discardIssue(
    @Arg('id', () => ID) id: string,
    @Arg('discard', () => Boolean) discard: boolean,
    @Ctx() ctx: Context,
  ): Promise<IssueType> {
    const { issue, changed } = await discardIssue(ctx.ds, { caller: requireCaller(ctx), id, discard, now: nowOf(ctx) });
    // An ingest edge in this process learns the project's discard keys at once; others within their key TTL.
    if (changed) ctx.onProjectChanged?.(issue.projectId);
    return toIssueType(issue);
  }

  @Mutation(() => ID, {
    description:
      'Deletes the issue with its events and feedback; returns its id. Owners and admins. ' +
      'A later event with the same grouping key starts a new issue.',
  })
  async deleteIssue(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<string> {
    return deleteIssue(ctx.ds, requireCaller(ctx), id);
  }

  @Mutation(() => IssueType, {
    description:
      "Moves the source issue's events, users, releases and feedback into the target (same project), recomputes " +
      "the target's counts and deletes the source. Later events of the source's grouping key join the target. " +
      'The target keeps its status and title. Undone by unmergeIssue.',
  })
  async mergeIssues(
    @Arg('targetId', () => ID) targetId: string,
    @Arg('sourceId', () => ID) sourceId: string,
    @Ctx() ctx: Context,
  ): Promise<IssueType> {
    return toIssueType(await mergeIssues(ctx.ds, { caller: requireCaller(ctx), targetId, sourceId, now: nowOf(ctx) }));
  }

  @Mutation(() => IssueType, { description: 'Back to open (not a regression).' })
  async reopenIssue(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<IssueType> {
    return toIssueType(await reopenIssue(ctx.ds, { caller: requireCaller(ctx), id, now: nowOf(ctx) }));
  }
}

function parseTime(name: string, value: string | null | undefined): Date | null {
  return value == null ? null : parseClientTime(name, value, { allowDate: true });
}
