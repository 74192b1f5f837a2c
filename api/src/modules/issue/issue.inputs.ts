import { ArgsType, Field, ID, Int } from 'type-graphql';
import { IssueSortEnum, IssueStatusEnum, LevelEnum } from './issue.type';
import { IssueAssignedFilterEnum } from '../activity/activity.type';

/**
 * The `issues` query's arguments as one object: fourteen positional parameters (five of them
 * strings in a row) could be passed in the wrong order without a type error.
 * Fields are in reverse order on purpose: positional @Arg parameters were registered last to
 * first, and the printed schema keeps that order (schema.graphql must not change).
 */
@ArgsType()
export class IssuesArgs {
  @Field(() => IssueSortEnum, { defaultValue: IssueSortEnum.LAST_SEEN })
  sort: IssueSortEnum;

  @Field(() => String, {
    nullable: true,
    description: "Case-insensitive text in the title or in any of the issue's event messages (at most 200 characters).",
  })
  search: string | null;

  @Field(() => IssueAssignedFilterEnum, {
    nullable: true,
    description: 'ME: assigned to the caller; NONE: unassigned.',
  })
  assigned: IssueAssignedFilterEnum | null;

  @Field(() => String, { nullable: true })
  lastSeenTo: string | null;

  @Field(() => String, { nullable: true })
  lastSeenFrom: string | null;

  @Field(() => String, { nullable: true })
  firstSeenTo: string | null;

  @Field(() => String, { nullable: true })
  firstSeenFrom: string | null;

  @Field(() => LevelEnum, { nullable: true })
  level: LevelEnum | null;

  @Field(() => String, {
    nullable: true,
    description: 'Issues with events carrying this release (in `environment`, when given).',
  })
  release: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'True: only discarded issues (`discardIssue`). By default discarded issues are left out.',
  })
  discarded: boolean | null;

  @Field(() => String, { nullable: true, description: 'Issues with events in this environment.' })
  environment: string | null;

  @Field(() => String, { nullable: true, description: 'An endCursor or edge cursor of the same sort.' })
  after: string | null;

  @Field(() => Int, { defaultValue: 25 })
  first: number;

  @Field(() => IssueStatusEnum, { nullable: true })
  status: IssueStatusEnum | null;

  @Field(() => ID)
  projectId: string;
}
