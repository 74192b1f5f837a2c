import { findEventNeighbours, findIssueEvent } from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { EventNavigationType, EventType, toEventType } from './event.type';
import { IssueType } from './issue.type';

/** An event's neighbours; the event was read through the access rule (`event(id)`, an issue's fields). */
@Resolver(() => EventType)
export class EventResolver {
  @FieldResolver(() => EventNavigationType, {
    description: "The issue's oldest, previous, next and latest events around this one (four index probes).",
  })
  async navigation(@Root() event: EventType, @Ctx() ctx: Context): Promise<EventNavigationType> {
    return findEventNeighbours(ctx.ds, { issueId: event.issueId, projectId: event.projectId, eventId: event.id });
  }
}

/** One event of an issue the caller reads, by id: what the issue page's `?event=` shows. */
@Resolver(() => IssueType)
export class IssueEventResolver {
  @FieldResolver(() => EventType, {
    nullable: true,
    description: "One of this issue's events by its id (a UUID); null when it is not this issue's or no longer stored.",
  })
  async event(
    @Root() issue: IssueType,
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: Context,
  ): Promise<EventType | null> {
    const event = await findIssueEvent(ctx.ds, issue, id);
    return event ? toEventType(event) : null;
  }
}
