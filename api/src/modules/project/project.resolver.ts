import {
  createProject,
  deleteProject,
  disableProjectKeyForUser,
  findProject,
  listProjectKeys,
  renameProject,
  rotateProjectKeyForUser,
  updateProjectKeyForUser,
  updateProjectPrivacy,
  updateProjectTraceLink,
} from '@tracker/core';
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import { ProjectKeyType, ProjectPrivacyInput, ProjectType, toProjectKeyType, toProjectType } from './project.type';

@Resolver(() => ProjectType)
export class ProjectResolver {
  @Query(() => ProjectType, { nullable: true, description: 'Null when missing or not yours.' })
  async project(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<ProjectType | null> {
    const project = await findProject(ctx.ds, requireCaller(ctx), id);
    return project ? toProjectType(ctx, project) : null;
  }

  @Mutation(() => ProjectType, { description: 'Owners and admins only. Returns the new DSN.' })
  async createProject(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('name', () => String) name: string,
    @Ctx() ctx: Context,
  ): Promise<ProjectType> {
    const caller = requireCaller(ctx);
    const { project } = await createProject(ctx.ds, caller.userId, organizationId, name, caller);
    return toProjectType(ctx, project);
  }

  @Mutation(() => ProjectType, { description: 'Owners and admins.' })
  async renameProject(
    @Arg('id', () => ID) id: string,
    @Arg('name', () => String) name: string,
    @Ctx() ctx: Context,
  ): Promise<ProjectType> {
    return toProjectType(ctx, await renameProject(ctx.ds, requireCaller(ctx), id, name));
  }

  @Mutation(() => ProjectType, {
    description:
      'Owners and admins (ADMIN scope for API tokens: turning scrubbing off lets personal data in). ' +
      'The server that answers applies it at once to the events it ingests; other ingest processes within a minute (their key cache).',
  })
  async updateProjectPrivacy(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => ProjectPrivacyInput) input: ProjectPrivacyInput,
    @Ctx() ctx: Context,
  ): Promise<ProjectType> {
    const caller = requireCaller(ctx);
    const project = await updateProjectPrivacy(ctx.ds, caller, id, {
      scrubDefaults: input.scrubDefaults ?? undefined,
      sensitiveFields: input.sensitiveFields ?? undefined,
      scrubIpAddresses: input.scrubIpAddresses ?? undefined,
    });
    ctx.onProjectChanged?.(project.id);
    ctx.log?.info({ userId: caller.userId, projectId: project.id, privacy: input }, 'project privacy settings changed');
    return toProjectType(ctx, project);
  }

  @Mutation(() => ProjectType, {
    description:
      'Owners and admins. Sets the trace viewer URL template the issue page links trace ids to (e.g. https://jaeger.example.com/trace/{traceId}); null or blank removes it.',
  })
  async updateProjectTraceLink(
    @Arg('id', () => ID) id: string,
    @Arg('template', () => String, { nullable: true }) template: string | null,
    @Ctx() ctx: Context,
  ): Promise<ProjectType> {
    const caller = requireCaller(ctx);
    const project = await updateProjectTraceLink(ctx.ds, caller, id, template ?? null);
    ctx.log?.info(
      { userId: caller.userId, projectId: project.id, template: project.traceUrlTemplate },
      'trace link changed',
    );
    return toProjectType(ctx, project);
  }

  @Mutation(() => Boolean, {
    description:
      'Owners and admins. Deletes the project and everything in it (issues, events, releases, keys, tokens, alert rules).',
  })
  async deleteProject(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<boolean> {
    const caller = requireCaller(ctx);
    const project = await deleteProject(ctx.ds, caller, id);
    ctx.log?.info({ userId: caller.userId, projectId: project.id }, 'project deleted');
    return true;
  }

  @Query(() => [ProjectKeyType], {
    description: "Any member. The project's DSN keys, newest first, disabled ones included.",
  })
  async projectKeys(@Arg('projectId', () => ID) projectId: string, @Ctx() ctx: Context): Promise<ProjectKeyType[]> {
    const keys = await listProjectKeys(ctx.ds, requireCaller(ctx), projectId);
    return Promise.all(keys.map((k) => toProjectKeyType(ctx, k)));
  }

  @Mutation(() => ProjectKeyType, {
    description:
      'Owners and admins. A new DSN key, which becomes the DSN. Older keys are disabled at once unless keepOldKeys is true. ' +
      'Ingest may accept a disabled key for up to a minute (its key cache).',
  })
  async rotateProjectKey(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('keepOldKeys', () => Boolean, { defaultValue: false }) keepOldKeys: boolean,
    @Ctx() ctx: Context,
  ): Promise<ProjectKeyType> {
    return toProjectKeyType(ctx, await rotateProjectKeyForUser(ctx.ds, requireCaller(ctx), projectId, { keepOldKeys }));
  }

  @Mutation(() => ProjectKeyType, {
    description: 'Owners and admins. Ingest refuses the key once its cache entry expires (up to a minute).',
  })
  async disableProjectKey(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('keyId', () => ID) keyId: string,
    @Ctx() ctx: Context,
  ): Promise<ProjectKeyType> {
    const key = await disableProjectKeyForUser(ctx.ds, { caller: requireCaller(ctx), projectId, keyId });
    return toProjectKeyType(ctx, key);
  }

  @Mutation(() => ProjectKeyType, {
    description:
      "Owners and admins. Sets one key's rate limit (items per second for all the key sends, 1 to 1,000,000; null = no per-key limit). " +
      'The server that answers applies it at once; other ingest processes within a minute (their key cache). ' +
      'Over the limit, ingest answers 429 with X-Sentry-Rate-Limits `<seconds>::key:rate_limited`.',
  })
  async updateProjectKey(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('keyId', () => ID) keyId: string,
    @Arg('rateLimitPerSecond', () => Int, { nullable: true }) rateLimitPerSecond: number | null,
    @Ctx() ctx: Context,
  ): Promise<ProjectKeyType> {
    const caller = requireCaller(ctx);
    const key = await updateProjectKeyForUser(ctx.ds, {
      caller,
      projectId,
      keyId,
      rateLimitPerSecond: rateLimitPerSecond ?? null,
    });
    ctx.onProjectChanged?.(key.projectId);
    ctx.log?.info(
      { userId: caller.userId, projectId: key.projectId, keyId: key.id, rateLimitPerSecond },
      'key rate limit changed',
    );
    return toProjectKeyType(ctx, key);
  }
}
