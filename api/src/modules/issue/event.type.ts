import { sourcePathFromMap, type Event, type SymbolicatedFrame } from '@tracker/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { LevelEnum } from './issue.type';

// `simpleResolvers: true` on every type: see issue.type.ts.

@ObjectType('EventTag', { simpleResolvers: true })
export class EventTagType {
  @Field(() => String)
  key: string;

  @Field(() => String)
  value: string;
}

@ObjectType('SdkInfo', { simpleResolvers: true })
export class SdkInfoType {
  @Field(() => String)
  name: string;

  @Field(() => String)
  version: string;
}

@ObjectType('MinifiedFrame', {
  simpleResolvers: true,
  description: 'The frame as the engine printed it, before source maps.',
})
export class MinifiedFrameType {
  @Field(() => String)
  filename: string;

  @Field(() => String, { nullable: true })
  function: string | null;

  @Field(() => Int, { nullable: true })
  lineno: number | null;

  @Field(() => Int, { nullable: true })
  colno: number | null;
}

@ObjectType('SourceContext', { simpleResolvers: true, description: "Original source lines around the frame's line." })
export class SourceContextType {
  @Field(() => [String])
  pre: string[];

  @Field(() => String)
  line: string;

  @Field(() => [String])
  post: string[];
}

@ObjectType('Frame', {
  simpleResolvers: true,
  description: 'A stack frame, innermost first; de-minified when a source map of the release matched.',
})
export class FrameType extends MinifiedFrameType {
  @Field(() => Boolean, { description: 'False for runtime and dependency frames.' })
  inApp: boolean;

  @Field(() => MinifiedFrameType, { nullable: true, description: 'Set when a source map was applied.' })
  minified: MinifiedFrameType | null;

  @Field(() => SourceContextType, { nullable: true, description: "From the map's sourcesContent, when it has it." })
  context: SourceContextType | null;
}

@ObjectType('Event', { simpleResolvers: true, description: 'One error or message as the worker stored it.' })
export class EventType {
  @Field(() => ID, { description: 'Pass to `event(id)`.' })
  id: string;

  @Field(() => ID, { description: 'The id the SDK chose (or ingest assigned).' })
  eventId: string;

  @Field(() => ID)
  issueId: string;

  @Field(() => String)
  message: string;

  @Field(() => String)
  type: string;

  @Field(() => LevelEnum)
  level: LevelEnum;

  @Field(() => Boolean, { nullable: true, description: 'As the SDK reported it; false for uncaught errors.' })
  handled: boolean | null;

  @Field(() => String)
  environment: string;

  @Field(() => String, { nullable: true })
  release: string | null;

  @Field(() => String, { nullable: true })
  url: string | null;

  @Field(() => String, { description: 'When it happened (the client clock, clamped to ingest time). ISO 8601.' })
  timestamp: string;

  @Field(() => String, { description: 'When ingest accepted it. ISO 8601.' })
  receivedAt: string;

  @Field(() => [FrameType], { description: 'Innermost first; de-minified where a source map matched.' })
  frames: FrameType[];

  @Field(() => String, { nullable: true, description: 'The raw stack text the SDK sent.' })
  stack: string | null;

  @Field(() => [EventTagType], {
    description:
      "Sorted by key. The event's own tags, plus those the worker derived from its context where the event did not set them: browser, browser.name, os, os.name, device (from context.userAgent), runtime, runtime.name, os.name (from context.runtime and context.os).",
  })
  tags: EventTagType[];

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description:
      'As sent (nesting past 10 levels cut). The SDKs add userAgent (browser), runtime and os (Node); the edge adds userAgent from the request header to browser SDK events without one.',
  })
  context: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'As sent: id, email and any other keys.' })
  user: Record<string, unknown> | null;

  @Field(() => SdkInfoType, { nullable: true })
  sdk: SdkInfoType | null;

  @Field(() => [String], {
    nullable: true,
    description:
      'The custom grouping fingerprint, when the SDK sent one; a string on the wire is the one-entry list (they group alike).',
  })
  fingerprint: string[] | null;
}

export function toEventType(e: Event): EventType {
  return {
    id: String(e.id),
    eventId: e.eventId,
    issueId: e.issueId,
    message: e.message,
    type: e.type,
    level: e.level as LevelEnum,
    handled: e.handled,
    environment: e.environment,
    release: e.release,
    url: e.url,
    timestamp: e.timestamp.toISOString(),
    receivedAt: e.receivedAt.toISOString(),
    stack: e.stack,
    tags: Object.entries(e.tags ?? {})
      .map(([key, value]) => ({ key, value: String(value) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    context: e.context,
    user: e.user,
    sdk: e.sdk,
    fingerprint: e.fingerprint,
    frames: e.frames.map((f: SymbolicatedFrame) => ({
      // Frames de-minified before paths were tidied (sourcePathFromMap) read the same as new ones.
      filename: f.minified ? sourcePathFromMap(f.filename) : f.filename,
      function: f.function,
      lineno: f.lineno,
      colno: f.colno,
      inApp: f.inApp,
      minified: f.minified ?? null,
      context: f.context ? { pre: [...f.context.pre], line: f.context.line, post: [...f.context.post] } : null,
    })),
  };
}
