import type { ReleaseCommit, SuspectCommit } from '@tracker/core';
import { Field, ObjectType } from 'type-graphql';

@ObjectType('Commit', {
  simpleResolvers: true,
  description: 'A commit of a release, as `sentry-cli releases set-commits` sent it.',
})
export class CommitType {
  @Field(() => String, { description: 'The commit hash.' })
  id: string;

  @Field(() => String, { description: "The repository's name as sentry-cli gave it." })
  repository: string;

  @Field(() => String, { nullable: true })
  authorName: string | null;

  @Field(() => String, { nullable: true })
  authorEmail: string | null;

  @Field(() => String, { nullable: true })
  message: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601, the author time.' })
  timestamp: string | null;

  @Field(() => [String], { description: 'Paths it changed, relative to the repository root (at most 1,000).' })
  files: string[];
}

export function toCommitType(c: ReleaseCommit): CommitType {
  return {
    id: c.id,
    repository: c.repository,
    authorName: c.authorName,
    authorEmail: c.authorEmail,
    message: c.message,
    timestamp: c.timestamp?.toISOString() ?? null,
    files: c.files,
  };
}

@ObjectType('SuspectCommit', {
  simpleResolvers: true,
  description: "A commit of the issue's first release that changed a file named in its in-app frames.",
})
export class SuspectCommitType {
  @Field(() => CommitType)
  commit: CommitType;

  @Field(() => String, { description: 'The version the issue first appeared in.' })
  release: string;

  @Field(() => [String], { description: "The commit's changed paths that an in-app frame names." })
  files: string[];
}

export function toSuspectCommitType(s: SuspectCommit): SuspectCommitType {
  return { commit: toCommitType(s.commit), release: s.release, files: s.files };
}
