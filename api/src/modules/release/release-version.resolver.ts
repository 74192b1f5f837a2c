import { releaseVersionKey } from '@tracker/core';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { CommitType, toCommitType } from './commit.type';
import { ReleaseType } from './release.type';

/**
 * What sentry-cli adds to a version (finalize, set-commits), on each of its release rows. Read
 * through one loader: a page of releases costs two queries, whatever its length.
 */
@Resolver(() => ReleaseType)
export class ReleaseVersionResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: 'ISO 8601: when `sentry-cli releases finalize` marked the version released; null before.',
  })
  async dateReleased(@Root() release: ReleaseType, @Ctx() ctx: Context): Promise<string | null> {
    const details = await ctx.loaders.releaseVersionDetails.load(releaseVersionKey(release.projectId, release.version));
    return details.dateReleased?.toISOString() ?? null;
  }

  @FieldResolver(() => [CommitType], {
    description: 'The commits set-commits gave the version, newest first; at most 100.',
  })
  async commits(@Root() release: ReleaseType, @Ctx() ctx: Context): Promise<CommitType[]> {
    const details = await ctx.loaders.releaseVersionDetails.load(releaseVersionKey(release.projectId, release.version));
    return details.commits.map(toCommitType);
  }
}
