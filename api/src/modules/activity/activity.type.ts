import type { IssueActivityEntry, IssueComment } from '@tracker/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';

export enum IssueActivityKindEnum {
  FIRST_SEEN = 'FIRST_SEEN',
  RESOLVED = 'RESOLVED',
  SNOOZED = 'SNOOZED',
  REOPENED = 'REOPENED',
  REGRESSED = 'REGRESSED',
  MERGED = 'MERGED',
  UNMERGED = 'UNMERGED',
  ASSIGNED = 'ASSIGNED',
  COMMENTED = 'COMMENTED',
  ALERT_SENT = 'ALERT_SENT',
  DISCARDED = 'DISCARDED',
}
registerEnumType(IssueActivityKindEnum, { name: 'IssueActivityKind', description: 'What happened to an issue.' });

export enum IssueAssignedFilterEnum {
  ME = 'ME',
  NONE = 'NONE',
}
registerEnumType(IssueAssignedFilterEnum, {
  name: 'IssueAssignedFilter',
  valuesConfig: {
    ME: { description: 'Assigned to the caller.' },
    NONE: { description: 'Assigned to nobody.' },
  },
});

@ObjectType('UserRef', { simpleResolvers: true, description: 'A person, by id and email.' })
export class UserRefType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  email: string;
}

@ObjectType('Comment', {
  simpleResolvers: true,
  description: 'Plain text on an issue; only its author edits or deletes it.',
})
export class CommentType {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  issueId: string;

  @Field(() => UserRefType, { nullable: true, description: 'Null when the account was deleted.' })
  author: UserRefType | null;

  @Field(() => String, { description: 'Plain text as written (render as text; link http(s) URLs only).' })
  body: string;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt: string;

  @Field(() => String, { description: 'ISO 8601; equals createdAt until edited.' })
  updatedAt: string;

  @Field(() => Boolean, { description: 'The caller wrote it (and so may edit or delete it).' })
  editable: boolean;
}

@ObjectType('IssueActivity', { simpleResolvers: true, description: 'One entry of an issue timeline.' })
export class IssueActivityType {
  @Field(() => ID)
  id: string;

  @Field(() => IssueActivityKindEnum)
  kind: IssueActivityKindEnum;

  @Field(() => UserRefType, { nullable: true, description: 'Who did it; null for the system.' })
  actor: UserRefType | null;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt: string;

  @Field(() => String, {
    description: "The sentence shown (a regression's reason, a comment's text). Plain text.",
  })
  message: string;

  @Field(() => GraphQLJSONObject, { description: 'Details by kind (release, environment, ids…); see docs/api.md.' })
  data: Record<string, unknown>;

  @Field(() => CommentType, { nullable: true, description: 'COMMENTED only.' })
  comment: CommentType | null;
}

export function toCommentType(c: IssueComment, callerId: string): CommentType {
  return {
    id: c.id,
    issueId: c.issueId,
    author: c.author,
    body: c.body,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    editable: c.author?.id === callerId,
  };
}

export function toIssueActivityType(a: IssueActivityEntry, callerId: string): IssueActivityType {
  return {
    id: a.id,
    kind: a.kind as IssueActivityKindEnum,
    actor: a.actor,
    createdAt: a.createdAt.toISOString(),
    message: a.message,
    data: a.data,
    comment: a.comment ? toCommentType(a.comment, callerId) : null,
  };
}
