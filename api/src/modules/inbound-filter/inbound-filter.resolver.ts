import {
  findProjectInboundFilters,
  updateProjectInboundFilters,
  type InboundFilterSettings,
  type LegacyBrowser,
} from '@tracker/core';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import {
  ProjectInboundFiltersInput,
  ProjectInboundFiltersType,
  toProjectInboundFiltersType,
} from './inbound-filter.type';

@Resolver(() => ProjectInboundFiltersType)
export class InboundFilterResolver {
  @Query(() => ProjectInboundFiltersType, {
    description: "Any member. The project's inbound filters and what each dropped.",
  })
  async projectInboundFilters(
    @Arg('projectId', () => ID) projectId: string,
    @Ctx() ctx: Context,
  ): Promise<ProjectInboundFiltersType> {
    return toProjectInboundFiltersType(await findProjectInboundFilters(ctx.ds, requireCaller(ctx), projectId));
  }

  @Mutation(() => ProjectInboundFiltersType, {
    description:
      'Owners and admins (ADMIN scope for API tokens: a filter drops events). A message or release glob that matches ' +
      'everything is refused unless confirmDropAll is true. The server that answers applies it at once; other ingest ' +
      'processes within a minute (their key cache).',
  })
  async updateProjectInboundFilters(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => ProjectInboundFiltersInput) input: ProjectInboundFiltersInput,
    @Arg('confirmDropAll', () => Boolean, { defaultValue: false }) confirmDropAll: boolean,
    @Ctx() ctx: Context,
  ): Promise<ProjectInboundFiltersType> {
    const caller = requireCaller(ctx);
    const changes: Partial<InboundFilterSettings> = {};
    if (input.browserExtensions != null) changes.browserExtensions = input.browserExtensions;
    if (input.localhost != null) changes.localhost = input.localhost;
    if (input.legacyBrowsers != null) changes.legacyBrowsers = input.legacyBrowsers;
    if (input.webCrawlers != null) changes.webCrawlers = input.webCrawlers;
    if (input.errorMessages != null) changes.errorMessages = input.errorMessages;
    if (input.releases != null) changes.releases = input.releases;
    if (input.legacyBrowserMinVersions != null) {
      const versions: Partial<Record<LegacyBrowser, number>> = {};
      for (const v of input.legacyBrowserMinVersions) versions[v.browser] = v.minVersion;
      changes.legacyBrowserMinVersions = versions as Record<LegacyBrowser, number>;
    }
    const result = await updateProjectInboundFilters(ctx.ds, caller, projectId, changes, { confirmDropAll });
    ctx.onProjectChanged?.(result.projectId);
    ctx.log?.info(
      { userId: caller.userId, projectId: result.projectId, confirmDropAll },
      'project inbound filters changed',
    );
    return toProjectInboundFiltersType(result);
  }
}
