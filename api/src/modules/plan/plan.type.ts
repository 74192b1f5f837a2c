import type { Plan } from '@tracker/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('PlanInfo', {
  simpleResolvers: true,
  description: "One plan of the catalogue (docs/quotas.md), as core's plan table defines it. Prices live in Stripe.",
})
export class PlanInfoType {
  @Field(() => ID, { description: 'The id organizations carry in `plan`: free, pro or business.' })
  id: string;

  @Field(() => String)
  name: string;

  @Field(() => Int, {
    description: 'Error events, messages and Web Vitals reports per calendar month (UTC); feedback is free.',
  })
  eventsPerMonth: number;

  @Field(() => Int, { description: 'Structured log entries per calendar month (UTC): a cap of their own.' })
  logsPerMonth: number;

  @Field(() => Int, { description: 'Days events, logs and vitals reports are kept.' })
  retentionDays: number;

  @Field(() => Boolean, {
    description: 'Release health: registering releases (upload token or markRelease) and `Release.health`.',
  })
  releaseHealth: boolean;

  @Field(() => Int, { description: 'Cron monitors per organization (docs/monitors.md).' })
  cronMonitors: number;

  @Field(() => Int, { description: 'Uptime monitors per organization (docs/monitors.md).' })
  uptimeMonitors: number;
}

export const toPlanInfoType = (p: Plan): PlanInfoType => ({
  id: p.id,
  name: p.name,
  eventsPerMonth: p.eventsPerMonth,
  logsPerMonth: p.logsPerMonth,
  retentionDays: p.retentionDays,
  releaseHealth: p.releaseHealth,
  cronMonitors: p.cronMonitors,
  uptimeMonitors: p.uptimeMonitors,
});
