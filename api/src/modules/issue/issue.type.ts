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

export enum SnoozeKindEnum {
  UNTIL = 'until',
  MINUTES = 'minutes',
  EVENTS = 'events',
  USERS = 'users',
}
registerEnumType(SnoozeKindEnum, {
  name: 'SnoozeKind',
  description: 'What ends a snooze.',
  valuesConfig: {
    UNTIL: { description: 'A time (`until`).' },
    MINUTES: { description: 'A duration from when it was snoozed (`minutes`).' },
    EVENTS: { description: 'A number of further events (`forEvents`).' },
    USERS: { description: 'A number of further distinct users (`forUsers`).' },
  },
});

@ObjectType('IssueSnooze', { simpleResolvers: true, description: "What ends a snoozed issue's snooze." })
export class IssueSnoozeType {
  @Field(() => SnoozeKindEnum)
  kind: SnoozeKindEnum;

  @Field(() => String, { description: 'When it was snoozed (ISO 8601).' })
  snoozedAt: string;

  @Field(() => String, { nullable: true, description: 'ISO 8601; for UNTIL and MINUTES.' })
  until: string | null;

  @Field(() => Int, { nullable: true })
  minutes: number | null;

  @Field(() => Int, { nullable: true })
  forEvents: number | null;

  @Field(() => Int, { nullable: true })
  forUsers: number | null;

  @Field(() => Int, {
    nullable: true,
    description: 'EVENTS and USERS: how many more events (or users) end the snooze, counted from now.',
  })
  remaining: number | null;
}

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

  @Field(() => String, { nullable: true, description: 'ISO 8601; set while snoozed until a time.' })
  snoozedUntil: string | null;

  @Field(() => IssueSnoozeType, {
    nullable: true,
    description: 'While snoozed: what ends the snooze (null for snoozes made before snooze kinds existed).',
  })
  snooze: IssueSnoozeType | null;

  @Field(() => Boolean, { description: 'Its new events are dropped at ingest (`discardIssue`).' })
  discarded: boolean;

  @Field(() => String, { nullable: true, description: 'ISO 8601; when it was discarded.' })
  discardedAt: string | null;

  resolvedInReleaseId: string | null;
  assigneeId: string | null;
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
    snooze: i.status === 'snoozed' ? toSnoozeType(i) : null,
    discarded: i.discardedAt != null,
    discardedAt: i.discardedAt?.toISOString() ?? null,
    resolvedInReleaseId: i.resolvedInReleaseId,
    assigneeId: i.assigneeId ?? null,
  };
}

function toSnoozeType(i: Issue): IssueSnoozeType | null {
  const s = i.snooze;
  if (!s) return null;
  const remaining =
    s.kind === 'events' && s.eventLimit != null
      ? Math.max(0, s.eventLimit - i.eventCount)
      : s.kind === 'users' && s.userLimit != null
        ? Math.max(0, s.userLimit - i.userCount)
        : null;
  return {
    kind: s.kind as SnoozeKindEnum,
    snoozedAt: new Date(s.at).toISOString(),
    until: i.snoozedUntil?.toISOString() ?? null,
    minutes: s.minutes ?? null,
    forEvents: s.forEvents ?? null,
    forUsers: s.forUsers ?? null,
    remaining,
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
