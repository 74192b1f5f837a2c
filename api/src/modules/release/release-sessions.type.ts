import { Field, Float, ObjectType, registerEnumType } from 'type-graphql';

/** Where a release's crash-free figures come from (decision 045). */
export enum HealthBasisEnum {
  SESSIONS = 'sessions',
  EVENTS = 'events',
}
registerEnumType(HealthBasisEnum, {
  name: 'HealthBasis',
  description:
    'SESSIONS: from the sessions Sentry SDKs sent for the release (crash-free sessions and users as they count them). ' +
    'EVENTS: the release has no sessions; crash-free users is derived from the error events that name users.',
});

@ObjectType('ReleaseSessions', {
  simpleResolvers: true,
  description:
    'Sessions of a release in its environment, each counted once by its final state. Started sessions that have ' +
    'not ended yet are in started only. Float: counters can pass 2^31.',
})
export class ReleaseSessionsType {
  @Field(() => Float, { description: 'Sessions started (single sessions with init, and every aggregated session).' })
  started: number;

  @Field(() => Float, { description: 'Ended cleanly, with no error.' })
  exited: number;

  @Field(() => Float, { description: 'Ended with errors (errors > 0), without crashing.' })
  errored: number;

  @Field(() => Float, { description: 'Crashed (an unhandled error).' })
  crashed: number;

  @Field(() => Float, { description: 'Ended abnormally (killed, hung); counted as crashed in crash-free rates.' })
  abnormal: number;
}
