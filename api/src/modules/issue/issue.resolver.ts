import {
  AppError,
  deleteIssue,
  findIssueForUser,
  listIssues,
  mergeIssues,
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
  IssueConnection,
  IssueReleaseType,
  IssueSortEnum,
  IssueStatusEnum,
  LevelEnum,
  IssueType,
  toIssueType,
} from './issue.type';
import { EventType, toEventType } from './event.type';

@Resolver(() => IssueType)
export class IssueResolver {
  @Query(() => IssueConnection, {
    description:
      "One project's issues, filtered and sorted (most recently seen first by default), at most 100 per page. " +
      'Times are ISO 8601; ranges include their start and exclude their end. `totalCount` counts every issue ' +
      'matching the filters, read in the same snapshot as the page.',
  })
  async issues(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('status', () => IssueStatusEnum, { nullable: true }) status: IssueStatusEnum | null,
    @Arg('first', () => Int, { defaultValue: 25 }) first: number,
    @Arg('after', () => String, { nullable: true, description: 'An endCursor or edge cursor of the same sort.' })
    after: string | null,
    @Arg('environment', () => String, { nullable: true, description: 'Issues with events in this environment.' })
    environment: string | null,
    @Arg('release', () => String, {
      nullable: true,
      description: 'Issues with events carrying this release (in `environment`, when given).',
    })
    release: string | null,
    @Arg('level', () => LevelEnum, { nullable: true }) level: LevelEnum | null,
    @Arg('firstSeenFrom', () => String, { nullable: true }) firstSeenFrom: string | null,
    @Arg('firstSeenTo', () => String, { nullable: true }) firstSeenTo: string | null,
    @Arg('lastSeenFrom', () => String, { nullable: true }) lastSeenFrom: string | null,
    @Arg('lastSeenTo', () => String, { nullable: true }) lastSeenTo: string | null,
    @Arg('search', () => String, {
      nullable: true,
      description:
        "Case-insensitive text in the title or in any of the issue's event messages (at most 200 characters).",
    })
    search: string | null,
    @Arg('sort', () => IssueSortEnum, { defaultValue: IssueSortEnum.LAST_SEEN }) sort: IssueSortEnum,
    @Ctx() ctx: Context,
  ): Promise<IssueConnection> {
    const { user } = requirePrincipal(ctx);
    await requireProjectForUser(ctx.ds, user.id, projectId);
    const page = await listIssues(ctx.ds, {
      projectId,
      status: status ?? undefined,
      first,
      after,
      environment,
      release,
      level,
      firstSeenFrom: parseTime('firstSeenFrom', firstSeenFrom),
      firstSeenTo: parseTime('firstSeenTo', firstSeenTo),
      lastSeenFrom: parseTime('lastSeenFrom', lastSeenFrom),
      lastSeenTo: parseTime('lastSeenTo', lastSeenTo),
      search,
      sort,
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

  @Mutation(() => ID, {
    description:
      'Deletes the issue with its events and feedback; returns its id. Owners and admins. ' +
      'A later event with the same grouping key starts a new issue.',
  })
  async deleteIssue(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<string> {
    const { user } = requirePrincipal(ctx);
    return deleteIssue(ctx.ds, user.id, id);
  }

  @Mutation(() => IssueType, {
    description:
      "Moves the source issue's events, users, releases and feedback into the target (same project), recomputes " +
      "the target's counts and deletes the source. Later events of the source's grouping key join the target. " +
      'The target keeps its status and title. Cannot be undone.',
  })
  async mergeIssues(
    @Arg('targetId', () => ID) targetId: string,
    @Arg('sourceId', () => ID) sourceId: string,
    @Ctx() ctx: Context,
  ): Promise<IssueType> {
    const { user } = requirePrincipal(ctx);
    return toIssueType(await mergeIssues(ctx.ds, user.id, targetId, sourceId));
  }

  @Mutation(() => IssueType, { description: 'Back to open (not a regression).' })
  async reopenIssue(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<IssueType> {
    const { user } = requirePrincipal(ctx);
    return toIssueType(await reopenIssue(ctx.ds, user.id, id));
  }
}

function parseTime(name: string, value: string | null | undefined): Date | null {
  if (value == null) return null;
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}(T|$)/.test(value) || Number.isNaN(time.getTime())) {
    throw new AppError('BAD_USER_INPUT', `${name}: must be an ISO 8601 date or date-time`);
  }
  return time;
}
