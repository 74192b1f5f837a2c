import { listUnregisteredReleases, type UnregisteredRelease } from '@tracker/core';
import { Arg, Ctx, Field, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { requireCaller, type Context } from '../../context';

@ObjectType('UnregisteredRelease', { description: 'A version error events carried that was never registered.' })
export class UnregisteredReleaseType {
  @Field(() => String)
  version: string;

  @Field(() => [String])
  environments: string[];

  @Field(() => String)
  firstSeen: string;

  @Field(() => String)
  lastSeen: string;

  @Field(() => Int)
  eventCount: number;
}

function toType(r: UnregisteredRelease): UnregisteredReleaseType {
  return {
    version: r.version,
    environments: r.environments,
    firstSeen: r.firstSeen.toISOString(),
    lastSeen: r.lastSeen.toISOString(),
    eventCount: r.eventCount,
  };
}

@Resolver()
export class UnregisteredReleaseResolver {
  @Query(() => [UnregisteredReleaseType], {
    description:
      'Any member. Versions seen on error events but never registered ("seen, not registered"), most recently seen first; at most 200. ' +
      'markRelease registers one (plans with release health).',
  })
  async unregisteredReleases(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<UnregisteredReleaseType[]> {
    return (await listUnregisteredReleases(ctx.ds, requireCaller(ctx), projectId, { first })).map(toType);
  }
}
