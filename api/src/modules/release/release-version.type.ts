import type { ReleaseArtifactBundle, ReleaseFile, ReleaseIssue } from '@tracker/core';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { IssueType, toIssueType } from '../issue/issue.type';
import { ReleaseType } from './release.type';

@ObjectType('ReleaseVersion', {
  simpleResolvers: true,
  description:
    'One version of a project across the environments it is registered for: the release detail page. Its lists ' +
    'are bounded by `first` (see each field) and carry their full `totalCount`.',
})
export class ReleaseVersionType {
  @Field(() => String)
  version: string;

  @Field(() => ID)
  projectId: string;

  @Field(() => String, { description: 'ISO 8601: when it was first registered (or created through sentry-cli).' })
  dateCreated: string;

  @Field(() => String, { nullable: true, description: 'ISO 8601: `sentry-cli releases finalize`; null before.' })
  dateReleased: string | null;

  @Field(() => [ReleaseType], {
    description:
      'Its deploys: one release record per environment, newest deploy first, each with its own `health` (the ' +
      "Releases page's figures, under the same plan gate) and `commits`.",
  })
  deploys: ReleaseType[];
}

@ObjectType('ReleaseIssue', { simpleResolvers: true, description: 'An issue tied to a release, and how.' })
export class ReleaseIssueType {
  @Field(() => IssueType)
  issue: IssueType;

  @Field(() => [String], {
    description: "New and regressed: the environments where it held. Resolved: the resolved-in record's environment.",
  })
  environments: string[];

  @Field(() => String, {
    description: 'ISO 8601. New: first seen with the version. Regressed: its latest regression by it. Resolved: when.',
  })
  at: string;
}

@ObjectType('ReleaseIssueList', { simpleResolvers: true })
export class ReleaseIssueListType {
  @Field(() => Int, { description: 'Every issue of the list, not only those returned.' })
  totalCount: number;

  @Field(() => [ReleaseIssueType], { description: 'Newest `at` first.' })
  nodes: ReleaseIssueType[];
}

export function toReleaseIssueType(r: ReleaseIssue): ReleaseIssueType {
  return { issue: toIssueType(r.issue), environments: r.environments, at: r.at.toISOString() };
}

@ObjectType('ReleaseFile', { simpleResolvers: true, description: 'A source map stored for the version.' })
export class ReleaseFileType {
  @Field(() => String, { description: 'The bare file name it was uploaded under (`main.3f2a1c.js.map`).' })
  filename: string;

  @Field(() => Int)
  sizeBytes: number;

  @Field(() => String, { description: 'ISO 8601; a new upload of the same name replaces it.' })
  uploadedAt: string;
}

export function toReleaseFileType(f: ReleaseFile): ReleaseFileType {
  return { filename: f.filename, sizeBytes: f.sizeBytes, uploadedAt: f.uploadedAt.toISOString() };
}

@ObjectType('ReleaseFileList', { simpleResolvers: true })
export class ReleaseFileListType {
  @Field(() => Int)
  totalCount: number;

  @Field(() => Float, { description: 'Bytes of every file of the version (Float: may pass 2^31).' })
  totalBytes: number;

  @Field(() => [ReleaseFileType], { description: 'Newest upload first, then by name.' })
  nodes: ReleaseFileType[];
}

@ObjectType('ArtifactBundle', {
  simpleResolvers: true,
  description: 'An artifact bundle `sentry-cli sourcemaps upload` sent for the version; its maps are in `sourceMaps`.',
})
export class ArtifactBundleType {
  @Field(() => String, { description: "The bundle's SHA-1." })
  checksum: string;

  @Field(() => String, { nullable: true })
  dist: string | null;

  @Field(() => Int)
  fileCount: number;

  @Field(() => String, { description: 'ISO 8601.' })
  assembledAt: string;
}

export function toArtifactBundleType(b: ReleaseArtifactBundle): ArtifactBundleType {
  return { checksum: b.checksum, dist: b.dist, fileCount: b.fileCount, assembledAt: b.assembledAt.toISOString() };
}
