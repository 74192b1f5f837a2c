import { sourcePathFromMap, type Event, type StackFrame, type SymbolicatedFrame } from '@tracker/core';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
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

@ObjectType('SourceContext', {
  simpleResolvers: true,
  description:
    "Source lines around the frame's line: from the source map's sourcesContent after de-minifying, else as the SDK sent them (Sentry's pre_context/context_line/post_context, our contextLines). At most 5 each side, each at most 200 characters.",
})
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

  @Field(() => SourceContextType, { nullable: true, description: 'The source lines around `lineno`, when known.' })
  context: SourceContextType | null;

  @Field(() => [FrameVarType], {
    description: 'Local variables as the SDK sent them (Sentry `vars`), in its order: at most 50, values as text.',
  })
  vars: FrameVarType[];
}

@ObjectType('FrameVar', { simpleResolvers: true, description: 'One local variable of a frame, scrubbed at ingest.' })
export class FrameVarType {
  @Field(() => String)
  name: string;

  @Field(() => String, { description: 'As text (other JSON values serialized), at most 500 characters.' })
  value: string;
}

@ObjectType('EventException', {
  simpleResolvers: true,
  description: 'One error of the chain: the thrown one first, then what caused it, then what caused that.',
})
export class EventExceptionType {
  @Field(() => String)
  type: string;

  @Field(() => String, { description: 'Its message.' })
  value: string;

  @Field(() => [FrameType], { description: 'Innermost first; de-minified where a source map matched.' })
  frames: FrameType[];

  @Field(() => String, { nullable: true, description: 'The stack text as the SDK sent it, when it sent one.' })
  stack: string | null;
}

@ObjectType('Breadcrumb', { simpleResolvers: true, description: 'Something that happened before the error.' })
export class BreadcrumbType {
  @Field(() => String, { description: 'ISO 8601, as the SDK sent it.' })
  timestamp: string;

  @Field(() => String, { description: '`ui.click`, `navigation`, `http`, `console`…; `default` when none was sent.' })
  category: string;

  @Field(() => String, { nullable: true })
  message: string | null;

  @Field(() => String, { nullable: true, description: 'debug, info, warning, error or fatal; null when not sent.' })
  level: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'As sent, bounded and scrubbed at ingest.' })
  data: Record<string, unknown> | null;
}

@ObjectType('HttpHeader', { simpleResolvers: true })
export class HttpHeaderType {
  @Field(() => String)
  name: string;

  @Field(() => String)
  value: string;
}

@ObjectType('EventRequest', {
  simpleResolvers: true,
  description: 'The HTTP request the error happened in (server SDKs); cookies and credentials filtered at ingest.',
})
export class EventRequestType {
  @Field(() => String, { nullable: true })
  method: string | null;

  @Field(() => String, { nullable: true })
  url: string | null;

  @Field(() => String, { nullable: true })
  queryString: string | null;

  @Field(() => [HttpHeaderType], { description: 'In the order sent.' })
  headers: HttpHeaderType[];

  @Field(() => GraphQLJSON, { nullable: true, description: 'The body as the SDK sent it, bounded.' })
  data: unknown;
}

@ObjectType('EventNavigation', {
  simpleResolvers: true,
  description:
    "Ids of the issue's events around this one, in the order of `Issue.events` (by timestamp); each null when there is none other (`oldest` and `latest` are null on the oldest and the latest event).",
})
export class EventNavigationType {
  @Field(() => ID, { nullable: true })
  oldest: string | null;

  @Field(() => ID, { nullable: true })
  older: string | null;

  @Field(() => ID, { nullable: true })
  newer: string | null;

  @Field(() => ID, { nullable: true })
  latest: string | null;
}

@ObjectType('Event', { simpleResolvers: true, description: 'One error or message as the worker stored it.' })
export class EventType {
  @Field(() => ID, {
    description: 'The id the SDK chose (or ingest assigned), a UUID: what the dashboard shows. Pass to `event(id)`.',
  })
  id: string;

  @Field(() => ID, { description: 'The same as `id` (kept for integrations written before issue 29).' })
  eventId: string;

  /** For the event's own reads (navigation): not exposed. */
  projectId: string;

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

  @Field(() => [EventExceptionType], {
    description:
      'The error and the chain of its causes, the thrown one first (its frames are `frames`); one entry for an error without causes. Grouping reads the first only.',
  })
  exceptions: EventExceptionType[];

  @Field(() => [BreadcrumbType], { description: 'What happened before the error, oldest first (the newest 100).' })
  breadcrumbs: BreadcrumbType[];

  @Field(() => EventRequestType, { nullable: true })
  request: EventRequestType | null;

  @Field(() => String, {
    nullable: true,
    description: "React's component stack (`context.react.componentStack`, as Sentry's React SDK sends it).",
  })
  componentStack: string | null;

  @Field(() => GraphQLJSONObject, {
    description:
      'The event as stored (scrubbed at ingest): what the dashboard offers as raw JSON. Its shape follows the fields above and may grow.',
  })
  json: Record<string, unknown>;
}

export function toEventType(e: Event): EventType {
  const frames = e.frames.map(toFrameType);
  const request = e.request
    ? {
        method: e.request.method ?? null,
        url: e.request.url ?? null,
        queryString: e.request.queryString ?? null,
        headers: Object.entries(e.request.headers ?? {}).map(([name, value]) => ({ name, value })),
        data: e.request.data ?? null,
      }
    : null;
  const react = e.context?.react;
  const componentStack =
    react !== null &&
    typeof react === 'object' &&
    typeof (react as { componentStack?: unknown }).componentStack === 'string'
      ? (react as { componentStack: string }).componentStack
      : null;
  return {
    id: e.eventId,
    eventId: e.eventId,
    projectId: e.projectId,
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
    frames,
    exceptions: [
      { type: e.type, value: e.message, frames, stack: e.stack },
      ...(e.causes ?? []).map((c) => ({
        type: c.type,
        value: c.message,
        frames: c.frames.map(toFrameType),
        stack: c.stack ?? null,
      })),
    ],
    breadcrumbs: (e.breadcrumbs ?? []).map((b) => ({
      timestamp: b.timestamp,
      category: b.category,
      message: b.message ?? null,
      level: b.level ?? null,
      data: b.data ?? null,
    })),
    request,
    componentStack,
    json: storedJson(e),
  };
}

function toFrameType(f: SymbolicatedFrame | StackFrame): FrameType {
  const minified = 'minified' in f ? (f.minified ?? null) : null;
  return {
    // Frames de-minified before paths were tidied (sourcePathFromMap) read the same as new ones.
    filename: minified ? sourcePathFromMap(f.filename) : f.filename,
    function: f.function,
    lineno: f.lineno,
    colno: f.colno,
    inApp: f.inApp,
    minified,
    context: f.context ? { pre: [...f.context.pre], line: f.context.line, post: [...f.context.post] } : null,
    vars: Object.entries(f.vars ?? {}).map(([name, value]) => ({ name, value: String(value) })),
  };
}

/** The stored row without the columns that only serve the database (row id, partition, grouping key). */
function storedJson(e: Event): Record<string, unknown> {
  return {
    eventId: e.eventId,
    projectId: e.projectId,
    issueId: e.issueId,
    timestamp: e.timestamp.toISOString(),
    receivedAt: e.receivedAt.toISOString(),
    level: e.level,
    type: e.type,
    message: e.message,
    environment: e.environment,
    release: e.release,
    url: e.url,
    handled: e.handled,
    fingerprint: e.fingerprint,
    tags: e.tags,
    user: e.user,
    sdk: e.sdk,
    context: e.context,
    request: e.request,
    breadcrumbs: e.breadcrumbs,
    stack: e.stack,
    frames: e.frames,
    causes: e.causes,
  };
}
