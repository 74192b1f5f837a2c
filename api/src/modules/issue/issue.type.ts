import type { Issue } from '@tracker/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

// Every object type here sets `simpleResolvers: true`: its plain fields use graphql-js's default
// resolver instead of type-graphql's, which runs the global middlewares (scopeGuard, which only
// acts on root fields) through an async chain per field. A 50-issue page with 24-hour series
// has ~2,000 such fields: 20 ms of CPU before, ~1 ms after (docs/issue-queries.md). Field
// resolvers (@FieldResolver) keep their middlewares.
export enum IssueStatusEnum {
  OPEN = 'open',
  RESOLVED = 'resolved',
  SNOOZED = 'snoozed',
}
registerEnumType(IssueStatusEnum, { name: 'IssueStatus' });

export enum LevelEnum {
  FATAL = 'fatal',
  ERROR = 'error',
  WARNING = 'warning',
  INFO = 'info',
}
registerEnumType(LevelEnum, { name: 'Level' });

export enum IssueSortEnum {
  LAST_SEEN = 'last_seen',
  FIRST_SEEN = 'first_seen',
  EVENTS = 'events',
  USERS = 'users',
}
registerEnumType(IssueSortEnum, {
  name: 'IssueSort',
  description: 'Descending; ties broken by id.',
  valuesConfig: {
    LAST_SEEN: { description: 'Most recent activity first (the default).' },
    FIRST_SEEN: { description: 'Newest issues first.' },
    EVENTS: { description: 'Most events first.' },
    USERS: { description: 'Most users affected first.' },
  },
});

@ObjectType('Issue', { simpleResolvers: true, description: 'Events grouped by fingerprint.' })
export class IssueType {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  projectId: string;

  @Field(() => String)
  title: string;

  @Field(() => String)
  type: string;

  @Field(() => String, { nullable: true, description: 'Where it happened: the top in-app frame.' })
  culprit: string | null;

  @Field(() => IssueStatusEnum)
  status: IssueStatusEnum;

  @Field(() => LevelEnum)
  level: LevelEnum;

  @Field(() => Boolean)
  isRegression: boolean;

  @Field(() => Int)
  eventCount: number;

  @Field(() => Int, { description: 'Distinct user.id (or user.email when there is no id).' })
  userCount: number;

  @Field(() => String, { description: 'ISO 8601.' })
  firstSeen: string;

  @Field(() => String, { description: 'ISO 8601.' })
  lastSeen: string;

  @Field(() => String, { nullable: true, description: 'ISO 8601; set while resolved.' })
  resolvedAt: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601; set while snoozed.' })
  snoozedUntil: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'No alert rule fires for this issue before this time (muteIssueAlerts); null: not muted.',
  })
  alertsMutedUntil?: string | null;

  resolvedInReleaseId: string | null;
}

@ObjectType('IssueRelease', { simpleResolvers: true, description: 'A release an issue appeared in, per environment.' })
export class IssueReleaseType {
  @Field(() => String)
  version: string;

  @Field(() => String)
  environment: string;

  @Field(() => String, { description: 'ISO 8601.' })
  firstSeen: string;

  @Field(() => String, { description: 'ISO 8601.' })
  lastSeen: string;

  @Field(() => Int)
  eventCount: number;
}

export function toIssueType(i: Issue): IssueType {
  return {
    id: i.id,
    projectId: i.projectId,
    title: i.title,
    type: i.type,
    culprit: i.culprit,
    status: i.status as IssueStatusEnum,
    level: i.level as LevelEnum,
    isRegression: i.isRegression,
    eventCount: i.eventCount,
    userCount: i.userCount,
    firstSeen: i.firstSeen.toISOString(),
    lastSeen: i.lastSeen.toISOString(),
    resolvedAt: i.resolvedAt?.toISOString() ?? null,
    snoozedUntil: i.snoozedUntil?.toISOString() ?? null,
    alertsMutedUntil: i.alertsMutedUntil?.toISOString() ?? null,
    resolvedInReleaseId: i.resolvedInReleaseId,
  };
}

@ObjectType('PageInfo', { simpleResolvers: true })
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage: boolean;

  @Field(() => String, { nullable: true })
  endCursor: string | null;
}

@ObjectType('IssueEdge', { simpleResolvers: true })
export class IssueEdge {
  @Field(() => String)
  cursor: string;

  @Field(() => IssueType)
  node: IssueType;
}

@ObjectType('IssueConnection', { simpleResolvers: true })
export class IssueConnection {
  @Field(() => [IssueType])
  nodes: IssueType[];

  @Field(() => [IssueEdge])
  edges: IssueEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;

  @Field(() => Int)
  totalCount: number;
}
