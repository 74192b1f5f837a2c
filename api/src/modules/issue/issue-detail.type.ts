import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
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

/** The chart ranges of the issue page (core's SERIES_RANGES). */
export enum SeriesRangeEnum {
  LAST_HOUR = '1h',
  LAST_24_HOURS = '24h',
  LAST_7_DAYS = '7d',
  LAST_30_DAYS = '30d',
}
registerEnumType(SeriesRangeEnum, {
  name: 'SeriesRange',
  description: 'A chart range and its buckets: 12 × 5 minutes, 24 × 1 hour, 28 × 6 hours, 30 × 1 day (UTC).',
});

@ObjectType('SeriesPoint', { simpleResolvers: true, description: 'Events in one hour (or one bucket of a range).' })
export class SeriesPointType {
  @Field(() => String, { description: 'Start of the hour (or bucket), UTC, ISO 8601.' })
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
