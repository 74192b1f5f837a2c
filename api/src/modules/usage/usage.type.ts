import type { OrganizationUsage } from '@tracker/core';
import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('UsageMeter', { description: 'One monthly counter of an organization against its plan.' })
export class UsageMeterType {
  @Field(() => Int, { description: 'Counted so far this period (accurate to within a few seconds of traffic).' })
  used: number;

  @Field(() => Int, { description: "The plan's monthly limit." })
  limit: number;

  @Field(() => Int, { description: 'What is left before ingest answers 429; never below 0.' })
  remaining: number;
}

@ObjectType('Usage', {
  description: "An organization's usage in the current quota period (the UTC month) against its plan (docs/quotas.md).",
})
export class UsageType {
  @Field(() => String, { description: 'The period, YYYY-MM (UTC).' })
  period: string;

  @Field(() => String, { description: 'ISO 8601: when the counts reset (the first instant of the next UTC month).' })
  periodEnd: string;

  @Field(() => UsageMeterType, { description: 'Errors, messages and Web Vitals reports (feedback is free).' })
  events: UsageMeterType;

  @Field(() => UsageMeterType, { description: 'Structured log entries (a cap of their own).' })
  logs: UsageMeterType;
}

export const toUsageType = (u: OrganizationUsage): UsageType => ({
  period: u.period,
  periodEnd: u.periodEnd.toISOString(),
  events: { ...u.events },
  logs: { ...u.logs },
});
