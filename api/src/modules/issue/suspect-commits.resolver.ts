import { findSuspectCommits } from '@tracker/core';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { SuspectCommitType, toSuspectCommitType } from '../release/commit.type';
import { IssueType } from './issue.type';

/** Suspect commits (issue 30): for one issue at a time (the issue page), not for lists. */
@Resolver(() => IssueType)
export class SuspectCommitsResolver {
  @FieldResolver(() => [SuspectCommitType], {
    description:
      'Commits of the release the issue first appeared in that changed a file named in its in-app frames ' +
      '(matched by path suffix), newest first; at most 10. Empty without `sentry-cli releases set-commits`.',
  })
  async suspectCommits(@Root() issue: IssueType, @Ctx() ctx: Context): Promise<SuspectCommitType[]> {
    return (await findSuspectCommits(ctx.ds, { id: issue.id, projectId: issue.projectId })).map(toSuspectCommitType);
  }
}
