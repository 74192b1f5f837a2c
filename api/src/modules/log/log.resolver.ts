import { searchLogs } from '@tracker/core';
import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import { LogConnection, LogFilterInput, toLogEntryType } from './log.type';

@Resolver()
export class LogResolver {
  @Query(() => LogConnection, { description: 'Newest first (by timestamp, then id). At most 100 per page.' })
  async logs(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('filter', () => LogFilterInput, { nullable: true }) filter: LogFilterInput | null,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: Context,
  ): Promise<LogConnection> {
    const page = await searchLogs(ctx.ds, requireCaller(ctx), { projectId, ...filter, first, after });
    const nodes = page.logs.map(toLogEntryType);
    return {
      nodes,
      edges: nodes.map((node, i) => ({ node, cursor: page.cursors[i] })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.cursors.at(-1) ?? null },
    };
  }
}
