import type { Event } from '@tracker/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { LevelEnum } from './issue.type';
import { BreadcrumbType, EventNavigationType, EventRequestType } from './event-evidence.type';
import { EventExceptionType, FrameType, toFrameType } from './frame.type';

export { EventNavigationType };

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

  @Field(() => String, {
    nullable: true,
    description:
      "The message the error was logged with, beside the exception's own (Python's logging.exception, Sentry's logentry); null without one.",
  })
  logMessage: string | null;

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
    logMessage: e.logMessage,
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
    ...(e.logMessage === null ? {} : { logMessage: e.logMessage }),
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
