import type { AdminDeadLetter, AdminOrganization, InstanceStatus } from '@tracker/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { PageInfo } from '../issue/issue.type';
import { UsageMeterType } from '../usage/usage.type';

@ObjectType('AdminOrganization', {
  description: 'An organization as an instance admin sees it: plan and counts, never its data (decision 051).',
})
export class AdminOrganizationType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  name: string;

  @Field(() => String)
  slug: string;

  @Field(() => String, { description: 'free, pro or business.' })
  plan: string;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt: string;

  @Field(() => Int)
  memberCount: number;

  @Field(() => Int)
  projectCount: number;

  @Field(() => String, {
    nullable: true,
    description:
      "Stripe's status of a subscription that still bills (active, trialing, past_due, unpaid): a plan change then needs force.",
  })
  liveSubscription: string | null;

  @Field(() => UsageMeterType, { description: 'This month: errors, messages and Web Vitals reports.' })
  events: UsageMeterType;

  @Field(() => UsageMeterType, { description: 'This month: structured log entries.' })
  logs: UsageMeterType;
}

export const toAdminOrganizationType = (o: AdminOrganization): AdminOrganizationType => ({
  id: o.id,
  name: o.name,
  slug: o.slug,
  plan: o.plan,
  createdAt: o.createdAt.toISOString(),
  memberCount: o.members,
  projectCount: o.projects,
  liveSubscription: o.liveSubscription,
  events: { ...o.events },
  logs: { ...o.logs },
});

@ObjectType('AdminOrganizationConnection')
export class AdminOrganizationConnection {
  @Field(() => [AdminOrganizationType])
  nodes: AdminOrganizationType[];

  @Field(() => Int, { description: 'Organizations on the instance.' })
  totalCount: number;

  @Field(() => PageInfo)
  pageInfo: PageInfo;
}

@ObjectType('AdminPlanChange')
export class AdminPlanChangeType {
  @Field(() => AdminOrganizationType)
  organization: AdminOrganizationType;

  @Field(() => String)
  planBefore: string;

  @Field(() => String, {
    nullable: true,
    description: 'The status of the live Stripe subscription that force overrode; null when there was none.',
  })
  overrodeSubscription: string | null;
}

@ObjectType('AdminDeadLetter', { description: 'A job the worker set aside: why and when, never its payload.' })
export class AdminDeadLetterType {
  @Field(() => ID)
  id: string;

  @Field(() => String, { description: 'jobs (events) or alerts (deliveries).' })
  topic: string;

  @Field(() => String, { nullable: true, description: 'error, log, vitals, feedback, … when the payload said.' })
  kind: string | null;

  @Field(() => Int)
  attempts: number;

  @Field(() => String)
  firstFailedAt: string;

  @Field(() => String)
  lastFailedAt: string;

  @Field(() => String, { description: 'The first line of the last error (at most 300 characters).' })
  reason: string;
}

export const toAdminDeadLetterType = (d: AdminDeadLetter): AdminDeadLetterType => ({
  ...d,
  firstFailedAt: d.firstFailedAt.toISOString(),
  lastFailedAt: d.lastFailedAt.toISOString(),
});

@ObjectType('AdminDeadLetterList')
export class AdminDeadLetterList {
  @Field(() => [AdminDeadLetterType], { description: 'Newest first.' })
  nodes: AdminDeadLetterType[];

  @Field(() => Int, { description: 'All dead letters, listed or not.' })
  totalCount: number;
}

@ObjectType('AdminMigration')
export class AdminMigrationType {
  @Field(() => String)
  name: string;

  @Field(() => String, { description: "The migration's timestamp (its place in the order), as a number string." })
  timestamp: string;
}

@ObjectType('AdminSmtpStatus', { description: 'Where email goes out; the password is never shown.' })
export class AdminSmtpStatusType {
  @Field(() => Boolean)
  configured: boolean;

  @Field(() => String, { nullable: true })
  host: string | null;

  @Field(() => Int, { nullable: true })
  port: number | null;

  @Field(() => Boolean, { description: 'Implicit TLS (smtps://); otherwise STARTTLS when the relay offers it.' })
  secure: boolean;

  @Field(() => String, { nullable: true })
  from: string | null;
}

@ObjectType('AdminStripeStatus', { description: 'Which Stripe settings are present; no key or secret is shown.' })
export class AdminStripeStatusType {
  @Field(() => Boolean, { description: 'Key, webhook secret and at least one price: Checkout is offered.' })
  configured: boolean;

  @Field(() => Boolean)
  secretKey: boolean;

  @Field(() => Boolean)
  webhookSecret: boolean;

  @Field(() => Boolean)
  pricePro: boolean;

  @Field(() => Boolean)
  priceBusiness: boolean;

  @Field(() => String, { nullable: true, description: "test or live, from the key's prefix; null without a key." })
  mode: string | null;
}

@ObjectType('AdminInstance', { description: 'What the instance runs. Instance admins only.' })
export class AdminInstanceType {
  @Field(() => String, { description: "Tracker's version (the server package)." })
  version: string;

  @Field(() => String, { description: 'Node.js running this process.' })
  nodeVersion: string;

  @Field(() => String, { description: 'postgres or pglite (embedded).' })
  databaseKind: string;

  @Field(() => String)
  databaseVersion: string;

  @Field(() => [AdminMigrationType], { description: 'Applied, oldest first.' })
  migrations: AdminMigrationType[];

  @Field(() => [String], { description: 'Known to this build, not applied to the database.' })
  pendingMigrations: string[];

  @Field(() => Int)
  deadLetterCount: number;

  @Field(() => AdminSmtpStatusType)
  smtp: AdminSmtpStatusType;

  @Field(() => AdminStripeStatusType)
  stripe: AdminStripeStatusType;
}

export const toAdminInstanceType = (s: InstanceStatus, version: string): AdminInstanceType => ({
  version,
  nodeVersion: process.version,
  databaseKind: s.databaseKind,
  databaseVersion: s.databaseVersion,
  migrations: s.migrations.map((m) => ({ name: m.name, timestamp: String(m.timestamp) })),
  pendingMigrations: s.pendingMigrations,
  deadLetterCount: s.deadLetters,
  smtp: s.smtp,
  stripe: s.stripe,
});

@ObjectType('AdminTestEmail')
export class AdminTestEmailType {
  @Field(() => String, { description: "Where it went: the admin's own address." })
  to: string;

  @Field(() => String, { description: "The relay's answer to the message (e.g. 250 OK)." })
  response: string;
}
