import {
  AppError,
  createUploadToken,
  listReleases,
  listUploadTokens,
  registerRelease,
  requireProjectAdmin,
  requireProjectForUser,
  requireReleaseHealth,
  revokeUploadToken,
} from '@tracker/core';
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal, type Context } from '../../context';
import { CreatedUploadTokenType, ReleaseType, toReleaseType, toUploadTokenType, UploadTokenType } from './release.type';

@Resolver()
export class ReleaseResolver {
  @Query(() => [ReleaseType], { description: 'Newest deploy first; optionally one environment. At most 500.' })
  async releases(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('environment', () => String, { nullable: true }) environment: string | null,
    @Arg('first', () => Int, { defaultValue: 100 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<ReleaseType[]> {
    const { user } = requirePrincipal(ctx);
    await requireProjectForUser(ctx.ds, user.id, projectId);
    return (await listReleases(ctx.ds, projectId, { environment, first })).map(toReleaseType);
  }

  @Mutation(() => ReleaseType, {
    description: 'Mark release: registers a deploy now (missing environment = production). Needs Pro or above.',
  })
  async markRelease(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('version', () => String) version: string,
    @Arg('environment', () => String, { nullable: true }) environment: string | null,
    @Ctx() ctx: Context,
  ): Promise<ReleaseType> {
    const { user } = requirePrincipal(ctx);
    await requireProjectForUser(ctx.ds, user.id, projectId);
    const v = version.trim();
    if (!v || v.length > 200) throw new AppError('BAD_USER_INPUT', 'version: must be 1 to 200 characters');
    await requireReleaseHealth(ctx.ds, projectId);
    return toReleaseType(
      await registerRelease(ctx.ds, { projectId, version: v, environment: environment?.trim() || null }),
    );
  }

  @Query(() => [UploadTokenType], { description: 'Newest first, revoked ones included. Owners and admins.' })
  async uploadTokens(@Arg('projectId', () => ID) projectId: string, @Ctx() ctx: Context): Promise<UploadTokenType[]> {
    const { user } = requirePrincipal(ctx);
    await requireProjectAdmin(ctx.ds, user.id, projectId, 'see upload tokens');
    return (await listUploadTokens(ctx.ds, projectId)).map(toUploadTokenType);
  }

  @Mutation(() => CreatedUploadTokenType, { description: 'Owners and admins. The secret is in the answer, once.' })
  async createUploadToken(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('name', () => String) name: string,
    @Ctx() ctx: Context,
  ): Promise<CreatedUploadTokenType> {
    const { user } = requirePrincipal(ctx);
    await requireProjectAdmin(ctx.ds, user.id, projectId, 'create upload tokens');
    const { token, record } = await createUploadToken(ctx.ds, { projectId, name, createdBy: user.id });
    return { token, uploadToken: toUploadTokenType(record) };
  }

  @Mutation(() => UploadTokenType, { description: 'Owners and admins. Takes effect on the next upload.' })
  async revokeUploadToken(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: Context,
  ): Promise<UploadTokenType> {
    const { user } = requirePrincipal(ctx);
    await requireProjectAdmin(ctx.ds, user.id, projectId, 'revoke upload tokens');
    return toUploadTokenType(await revokeUploadToken(ctx.ds, projectId, id));
  }
}
