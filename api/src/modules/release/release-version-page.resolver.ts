import {
  findReleaseVersion,
  MAX_RELEASE_FILES,
  MAX_RELEASE_ISSUES,
  readReleaseArtifactBundles,
  readReleaseCommits,
  readReleaseFiles,
  readReleaseIssues,
  type ReleaseIssueKind,
} from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import { CommitType, toCommitType } from './commit.type';
import { toReleaseType } from './release.type';
import {
  ArtifactBundleType,
  ReleaseFileListType,
  ReleaseIssueListType,
  ReleaseVersionType,
  toArtifactBundleType,
  toReleaseFileType,
  toReleaseIssueType,
} from './release-version.type';

/**
 * The release detail page. The root query applies the access rule (the project's `read`, as
 * `releases`); the lists below read the version of a project the caller was already allowed.
 */
@Resolver(() => ReleaseVersionType)
export class ReleaseVersionPageResolver {
  @Query(() => ReleaseVersionType, {
    nullable: true,
    description:
      'Any member. One version of the project across its environments. NOT_FOUND when the project is missing or ' +
      'not yours (as `releases`); null when the project has no release record of that version (one only seen on events: see unregisteredReleases).',
  })
  async release(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('version', () => String) version: string,
    @Ctx() ctx: Context,
  ): Promise<ReleaseVersionType | null> {
    const found = await findReleaseVersion(ctx.ds, requireCaller(ctx), projectId, version);
    if (!found) return null;
    return {
      version: found.version,
      projectId: found.projectId,
      dateCreated: found.dateCreated.toISOString(),
      dateReleased: found.dateReleased?.toISOString() ?? null,
      deploys: found.deploys.map(toReleaseType),
    };
  }

  @FieldResolver(() => ReleaseIssueListType, {
    description: `Issues whose first event in an environment carried this version. \`first\` 1 to ${MAX_RELEASE_ISSUES}.`,
  })
  newIssues(
    @Root() r: ReleaseVersionType,
    @Arg('first', () => Int, { defaultValue: 25 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<ReleaseIssueListType> {
    return issues(ctx, r, 'new', first);
  }

  @FieldResolver(() => ReleaseIssueListType, {
    description: `Issues an event of this version reopened (regressions, snoozes that ended). \`first\` 1 to ${MAX_RELEASE_ISSUES}.`,
  })
  regressedIssues(
    @Root() r: ReleaseVersionType,
    @Arg('first', () => Int, { defaultValue: 25 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<ReleaseIssueListType> {
    return issues(ctx, r, 'regressed', first);
  }

  @FieldResolver(() => ReleaseIssueListType, {
    description:
      'Issues resolved now whose resolution recorded this version as resolved-in (the newest deploy when resolved); ' +
      `one that regressed or was reopened since is not listed. \`first\` 1 to ${MAX_RELEASE_ISSUES}.`,
  })
  resolvedIssues(
    @Root() r: ReleaseVersionType,
    @Arg('first', () => Int, { defaultValue: 25 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<ReleaseIssueListType> {
    return issues(ctx, r, 'resolved', first);
  }

  @FieldResolver(() => ReleaseFileListType, {
    description: `Source maps stored for the version: names, sizes, upload times. \`first\` 1 to ${MAX_RELEASE_FILES}.`,
  })
  async sourceMaps(
    @Root() r: ReleaseVersionType,
    @Arg('first', () => Int, { defaultValue: 100 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<ReleaseFileListType> {
    const list = await readReleaseFiles(ctx.ds, { projectId: r.projectId, version: r.version, first });
    return { totalCount: list.totalCount, totalBytes: list.totalBytes, nodes: list.nodes.map(toReleaseFileType) };
  }

  @FieldResolver(() => [ArtifactBundleType], {
    description: `Artifact bundles that named the version, newest first. \`first\` 1 to ${MAX_RELEASE_FILES}.`,
  })
  async artifactBundles(
    @Root() r: ReleaseVersionType,
    @Arg('first', () => Int, { defaultValue: 25 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<ArtifactBundleType[]> {
    const bundles = await readReleaseArtifactBundles(ctx.ds, { projectId: r.projectId, version: r.version, first });
    return bundles.map(toArtifactBundleType);
  }

  @FieldResolver(() => [CommitType], {
    description: 'The commits set-commits gave the version, newest first. `first` 1 to 1,000.',
  })
  async commits(
    @Root() r: ReleaseVersionType,
    @Arg('first', () => Int, { defaultValue: 100 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<CommitType[]> {
    return (await readReleaseCommits(ctx.ds, r.projectId, r.version, first)).map(toCommitType);
  }
}

async function issues(
  ctx: Context,
  r: ReleaseVersionType,
  kind: ReleaseIssueKind,
  first: number,
): Promise<ReleaseIssueListType> {
  const list = await readReleaseIssues(ctx.ds, { projectId: r.projectId, version: r.version, kind, first });
  return { totalCount: list.totalCount, nodes: list.nodes.map(toReleaseIssueType) };
}
