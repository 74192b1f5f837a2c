import type { Event, Issue } from '@tracker/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

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

@ObjectType('Frame', { description: 'A stack frame, innermost first.' })
export class FrameType {
  @Field(() => String)
  filename: string;

  @Field(() => String, { nullable: true })
  function: string | null;

  @Field(() => Int, { nullable: true })
  lineno: number | null;

  @Field(() => Int, { nullable: true })
  colno: number | null;

  @Field(() => Boolean, { description: 'False for runtime and dependency frames.' })
  inApp: boolean;
}

@ObjectType('Event')
export class EventType {
  @Field(() => ID)
  id: string;

  @Field(() => ID, { description: 'The id the SDK chose (or ingest assigned).' })
  eventId: string;

  @Field(() => String)
  message: string;

  @Field(() => String)
  type: string;

  @Field(() => LevelEnum)
  level: LevelEnum;

  @Field(() => String)
  environment: string;

  @Field(() => String, { nullable: true })
  release: string | null;

  @Field(() => String, { nullable: true })
  url: string | null;

  @Field(() => String, { description: 'ISO 8601.' })
  timestamp: string;

  @Field(() => [FrameType])
  frames: FrameType[];
}

@ObjectType('Issue', { description: 'Events grouped by fingerprint.' })
export class IssueType {
  @Field(() => ID)
  id: string;

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
}

export function toIssueType(i: Issue): IssueType {
  return {
    id: i.id,
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
  };
}

export function toEventType(e: Event): EventType {
  return {
    id: e.id,
    eventId: e.eventId,
    message: e.message,
    type: e.type,
    level: e.level as LevelEnum,
    environment: e.environment,
    release: e.release,
    url: e.url,
    timestamp: e.timestamp.toISOString(),
    frames: e.frames.map((f) => ({
      filename: f.filename,
      function: f.function,
      lineno: f.lineno,
      colno: f.colno,
      inApp: f.inApp,
    })),
  };
}

@ObjectType('PageInfo')
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage: boolean;

  @Field(() => String, { nullable: true })
  endCursor: string | null;
}

@ObjectType('IssueEdge')
export class IssueEdge {
  @Field(() => String)
  cursor: string;

  @Field(() => IssueType)
  node: IssueType;
}

@ObjectType('IssueConnection')
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
