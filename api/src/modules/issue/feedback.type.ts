import type { Feedback } from '@tracker/core';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('Feedback', {
  simpleResolvers: true,
  description: 'What a user wrote about an error (SDK captureFeedback).',
})
export class FeedbackType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  message: string;

  @Field(() => String, { nullable: true })
  email: string | null;

  @Field(() => String, { nullable: true, description: 'The name the writer gave.' })
  name: string | null;

  @Field(() => String, { nullable: true, description: 'The page it was written on (the feedback widget sends it).' })
  url: string | null;

  @Field(() => ID, { nullable: true, description: 'The event it comments on.' })
  eventId: string | null;

  @Field(() => String, { description: 'ISO 8601.' })
  receivedAt: string;

  /** Not fields: for the event and issue links (modules/feedback), which are scoped by project. */
  projectId: string;
  issueId: string | null;
}

export function toFeedbackType(f: Feedback): FeedbackType {
  return {
    id: f.id,
    message: f.message,
    email: f.email,
    name: f.name,
    url: f.url,
    eventId: f.eventId,
    receivedAt: f.receivedAt.toISOString(),
    projectId: f.projectId,
    issueId: f.issueId,
  };
}
