import type { LogRecord } from '@tracker/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfo } from '../issue/issue.type';

export enum LogLevelEnum {
  DEBUG = 'debug',
  INFO = 'info',
  WARN = 'warn',
  ERROR = 'error',
}
registerEnumType(LogLevelEnum, { name: 'LogLevel' });

@InputType('LogAttributeFilter', { description: 'A context attribute and the text its value must equal.' })
export class LogAttributeFilterInput {
  @Field(() => String, { description: 'The attribute name, e.g. `http.route` (1 to 200 characters).' })
  key: string;

  @Field(() => String, { description: 'Compared with the value as text: `200` matches the number 200.' })
  value: string;
}

@InputType('LogFilter', { description: 'All optional; given filters must all match.' })
export class LogFilterInput {
  @Field(() => [LogLevelEnum], { nullable: true, description: 'Any of these levels; empty or absent: all.' })
  levels?: LogLevelEnum[] | null;

  @Field(() => String, {
    nullable: true,
    description: 'Case-insensitive substring of the message (1 to 200 characters; % and _ are literal).',
  })
  text?: string | null;

  @Field(() => String, { nullable: true })
  environment?: string | null;

  @Field(() => String, { nullable: true })
  release?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The `service` tag: an OpenTelemetry resource's service.name.",
  })
  service?: string | null;

  @Field(() => [LogAttributeFilterInput], {
    nullable: true,
    description:
      "Context attributes the log must carry with these values, compared as text (an OTLP log record's attributes); at most 5.",
  })
  attributes?: LogAttributeFilterInput[] | null;

  @Field(() => String, { nullable: true, description: "ISO 8601, on the log's own timestamp: from ≤ t." })
  from?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601: t < to.' })
  to?: string | null;
}

@ObjectType('LogEntry', { description: 'One structured log record sent by an SDK.' })
export class LogEntryType {
  @Field(() => ID)
  id: string;

  @Field(() => LogLevelEnum)
  level: LogLevelEnum;

  @Field(() => String)
  message: string;

  @Field(() => GraphQLJSONObject, { nullable: true })
  context: Record<string, unknown> | null;

  @Field(() => String)
  environment: string;

  @Field(() => String, { nullable: true })
  release: string | null;

  @Field(() => GraphQLJSONObject)
  tags: Record<string, string>;

  @Field(() => String, { description: 'ISO 8601: when the SDK logged it (clamped at ingest to a sane window).' })
  timestamp: string;

  @Field(() => String, { description: 'ISO 8601.' })
  receivedAt: string;
}

@ObjectType('LogEdge')
export class LogEdge {
  @Field(() => String)
  cursor: string;

  @Field(() => LogEntryType)
  node: LogEntryType;
}

@ObjectType('LogConnection', {
  description: 'No totalCount: counting a text search over a long range costs as much as reading it.',
})
export class LogConnection {
  @Field(() => [LogEntryType])
  nodes: LogEntryType[];

  @Field(() => [LogEdge])
  edges: LogEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;
}

export function toLogEntryType(l: LogRecord): LogEntryType {
  return {
    id: l.id,
    level: l.level as LogLevelEnum,
    message: l.message,
    context: l.context,
    environment: l.environment,
    release: l.release,
    tags: l.tags,
    timestamp: l.timestamp.toISOString(),
    receivedAt: l.receivedAt.toISOString(),
  };
}
