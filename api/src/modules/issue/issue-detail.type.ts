import { Field, Int, ObjectType } from 'type-graphql';
import { EventType } from './event.type';
import { PageInfo } from './issue.type';

@ObjectType('TagValueCount', { simpleResolvers: true })
export class TagValueCountType {
  @Field(() => String)
  value: string;

  @Field(() => Int)
  count: number;
}

@ObjectType('TagBreakdown', {
  simpleResolvers: true,
  description:
    "One tag key over the issue's newest events (at most 10,000 of them): its most frequent values (at most 10).",
})
export class TagBreakdownType {
  @Field(() => String)
  key: string;

  @Field(() => Int, { description: 'Events (of those read) that carry the key.' })
  count: number;

  @Field(() => [TagValueCountType], { description: 'Most frequent first.' })
  values: TagValueCountType[];
}

@ObjectType('SeriesPoint', { simpleResolvers: true, description: 'Events in one hour.' })
export class SeriesPointType {
  @Field(() => String, { description: 'Start of the hour, UTC, ISO 8601.' })
  ts: string;

  @Field(() => Int)
  count: number;
}

@ObjectType('IssueEnvironment', { simpleResolvers: true, description: 'An environment an issue had events in.' })
export class IssueEnvironmentType {
  @Field(() => String)
  environment: string;

  @Field(() => String, { description: 'ISO 8601.' })
  firstSeen: string;

  @Field(() => String, { description: 'ISO 8601.' })
  lastSeen: string;

  @Field(() => Int)
  eventCount: number;
}

@ObjectType('EventEdge', { simpleResolvers: true })
export class EventEdge {
  @Field(() => String)
  cursor: string;

  @Field(() => EventType)
  node: EventType;
}

@ObjectType('EventConnection', { simpleResolvers: true })
export class EventConnection {
  @Field(() => [EventType])
  nodes: EventType[];

  @Field(() => [EventEdge])
  edges: EventEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;

  @Field(() => Int, { description: "The issue's event count." })
  totalCount: number;
}
