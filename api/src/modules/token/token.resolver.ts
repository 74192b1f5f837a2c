import { createApiToken, listApiTokens, revokeApiToken } from '@tracker/core';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requirePrincipal, requireSession, type Context } from '../../context';
import { ApiScopeEnum, ApiTokenType, CreatedApiTokenType, toApiTokenType } from './token.type';

@Resolver()
export class TokenResolver {
  @Query(() => [ApiTokenType], { description: "The caller's API tokens, newest first, revoked ones included." })
  async apiTokens(@Ctx() ctx: Context): Promise<ApiTokenType[]> {
    const { user } = requirePrincipal(ctx);
    return (await listApiTokens(ctx.ds, user.id)).map(toApiTokenType);
  }

  @Mutation(() => CreatedApiTokenType, {
    description:
      'Sessions only. A personal API token for integrations, acting as you within its scopes in your organizations. ' +
      'The secret is in the answer, once; only its hash is stored.',
  })
  async createApiToken(
    @Arg('name', () => String) name: string,
    @Arg('scopes', () => [ApiScopeEnum]) scopes: ApiScopeEnum[],
    @Ctx() ctx: Context,
  ): Promise<CreatedApiTokenType> {
    const { user } = requireSession(ctx);
    const { token, record } = await createApiToken(ctx.ds, user.id, { name, scopes }, ctx.origin);
    ctx.log?.info({ userId: user.id, createdApiTokenId: record.id, scopes: record.scopes }, 'api token created');
    return { token, apiToken: toApiTokenType(record) };
  }

  @Mutation(() => ApiTokenType, { description: 'One of your tokens; it stops working on the next request.' })
  async revokeApiToken(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<ApiTokenType> {
    const { user, apiTokenId } = requirePrincipal(ctx);
    const record = await revokeApiToken(ctx.ds, user.id, id, { apiTokenId, origin: ctx.origin });
    ctx.log?.info({ userId: user.id, revokedApiTokenId: record.id }, 'api token revoked');
    return toApiTokenType(record);
  }
}
