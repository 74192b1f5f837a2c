import { AppError, listAuditLog } from '@tracker/core';
import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import { AuditLogConnection, AuditLogFilterInput, toAuditLogEntryType } from './audit.type';

/** The organization's audit log (docs/accounts.md, "Audit log"). */
@Resolver()
export class AuditResolver {
  @Query(() => AuditLogConnection, {
    description:
      "Owners only (API tokens: admin scope). Newest first, at most 200 a page; `after` is a previous page's endCursor. Kept one year.",
  })
  async auditLog(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Arg('filter', () => AuditLogFilterInput, { nullable: true }) filter: AuditLogFilterInput | null,
    @Ctx() ctx: Context,
  ): Promise<AuditLogConnection> {
    let since: Date | null = null;
    if (filter?.since) {
      since = new Date(filter.since);
      if (filter.since.length > 40 || Number.isNaN(since.getTime())) {
        throw new AppError('BAD_USER_INPUT', 'filter.since: not an ISO 8601 time');
      }
    }
    const page = await listAuditLog(ctx.ds, requireCaller(ctx), organizationId, {
      first,
      after,
      filter: { actor: filter?.actor ?? null, action: filter?.action ?? null, since },
    });
    const nodes = page.entries.map(toAuditLogEntryType);
    return {
      nodes,
      edges: nodes.map((node) => ({ node, cursor: node.id })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: nodes.at(-1)?.id ?? null },
    };
  }
}
