import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';

// What an event carries besides its stack (issue 29): breadcrumbs, the request, the links to
// the other events. `simpleResolvers: true` on every type: see issue.type.ts.

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
