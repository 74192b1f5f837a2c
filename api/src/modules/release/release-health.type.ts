import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { HealthBasisEnum, ReleaseSessionsType } from './release-sessions.type';

@ObjectType('ReleaseHealth', {
  simpleResolvers: true,
  description:
    'Health of one release in its environment, from the events that carried it. Pro and Business only: on Free ' +
    'the field answers an error with extensions.code PLAN_REQUIRED.',
})
export class ReleaseHealthType {
  @Field(() => Int, { description: 'Issues whose first event in this environment carried this release.' })
  issuesIntroduced: number;

  @Field(() => Int, {
    description: 'Issues an event of this release reopened: resolved ones that regressed, and snoozes that ended.',
  })
  regressions: number;

  @Field(() => HealthBasisEnum, {
    description:
      'Where crashFreeSessions, usersSeen, crashedUsers and crashFreeUsers come from: SESSIONS when Sentry SDKs sent ' +
      'sessions for this release in this environment, else EVENTS.',
  })
  basis: HealthBasisEnum;

  @Field(() => ReleaseSessionsType, { nullable: true, description: 'The session counters; null on the EVENTS basis.' })
  sessions: ReleaseSessionsType | null;

  @Field(() => Float, {
    nullable: true,
    description: 'Crash-free sessions: 1 − (crashed + abnormal) / started, from 0 to 1. Null on the EVENTS basis.',
  })
  crashFreeSessions: number | null;

  @Field(() => Int, {
    description:
      "SESSIONS: distinct users (the sessions' `did`). EVENTS: distinct users (user.id, else user.email) named by " +
      'events of this release in this environment.',
  })
  usersSeen: number;

  @Field(() => Int, {
    description:
      'Of usersSeen, SESSIONS: those with a crashed or abnormal session; EVENTS: those with at least one `fatal` ' +
      'or unhandled (`handled: false`) event.',
  })
  crashedUsers: number;

  @Field(() => Float, {
    nullable: true,
    description:
      'Crash-free users: (usersSeen − crashedUsers) / usersSeen, from 0 to 1. On the SESSIONS basis, over every ' +
      'user whose session carried a `did`. On the EVENTS basis users are known only from the error events that ' +
      'name them, so this is the share of affected users whose errors in this release were all handled and below ' +
      '`fatal`; users who met no error are not counted. Null when no session or event named a user.',
  })
  crashFreeUsers: number | null;

  @Field(() => String, { description: 'Start of the measured window: the deploy time. ISO 8601.' })
  windowStart: string;

  @Field(() => String, {
    description: 'End of the window: the next deploy in this environment, or now for the newest. ISO 8601.',
  })
  windowEnd: string;

  @Field(() => Int, { description: 'Events of this release timestamped inside the window.' })
  windowEvents: number;

  @Field(() => Boolean, {
    description:
      'Whether the window is a large enough sample to read as a rate or compare: at least 30 minutes since the ' +
      'deploy (or up to the next one) and at least 20 events. When false, eventsPerHour and eventsPerHourRatio ' +
      'are null: show the raw counts (windowEvents, usersSeen, crashedUsers) instead.',
  })
  enoughData: boolean;

  @Field(() => Float, {
    nullable: true,
    description: 'windowEvents per hour of window; null for an empty window, and when enoughData is false.',
  })
  eventsPerHour: number | null;

  @Field(() => ID, { nullable: true, description: 'The deploy before this one in the same environment.' })
  previousReleaseId: string | null;

  @Field(() => String, { nullable: true })
  previousVersion: string | null;

  @Field(() => Int, { nullable: true, description: "The previous release's issuesIntroduced; null for the first." })
  previousIssuesIntroduced: number | null;

  @Field(() => Int, { nullable: true, description: "The previous release's regressions; null for the first." })
  previousRegressions: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "The previous release's crashFreeUsers; null for the first, or when none of its events named a user.",
  })
  previousCrashFreeUsers: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "The previous release's crashFreeSessions; null for the first, or when it had no sessions.",
  })
  previousCrashFreeSessions: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "The previous release's eventsPerHour over its own window (its deploy to this one).",
  })
  previousEventsPerHour: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      'eventsPerHour / previousEventsPerHour: above 1, more events per hour than the previous release. Null ' +
      'unless both releases have enoughData.',
  })
  eventsPerHourRatio: number | null;
}
