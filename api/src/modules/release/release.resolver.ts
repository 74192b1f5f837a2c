import { createUploadToken, listReleases, listUploadTokens, markRelease, revokeUploadToken } from '@tracker/core';
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
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
    return (await listReleases(ctx.ds, requireCaller(ctx), projectId, { environment, first })).map(toReleaseType);
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
    return toReleaseType(await markRelease(ctx.ds, requireCaller(ctx), { projectId, version, environment }));
  }

  @Query(() => [UploadTokenType], { description: 'Newest first, revoked ones included. Owners and admins.' })
  async uploadTokens(@Arg('projectId', () => ID) projectId: string, @Ctx() ctx: Context): Promise<UploadTokenType[]> {
    return (await listUploadTokens(ctx.ds, requireCaller(ctx), projectId)).map(toUploadTokenType);
  }

  @Mutation(() => CreatedUploadTokenType, { description: 'Owners and admins. The secret is in the answer, once.' })
  async createUploadToken(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('name', () => String) name: string,
    @Ctx() ctx: Context,
  ): Promise<CreatedUploadTokenType> {
    const { token, record } = await createUploadToken(ctx.ds, requireCaller(ctx), { projectId, name });
    return { token, uploadToken: toUploadTokenType(record) };
  }

  @Mutation(() => UploadTokenType, { description: 'Owners and admins. Takes effect on the next upload.' })
  async revokeUploadToken(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: Context,
  ): Promise<UploadTokenType> {
    const token = await revokeUploadToken(ctx.ds, { caller: requireCaller(ctx), projectId, tokenId: id });
    return toUploadTokenType(token);
  }
}
