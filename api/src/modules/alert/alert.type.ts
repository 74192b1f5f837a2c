import type { AlertDelivery, AlertRule } from '@tracker/core';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LevelEnum } from '../issue/issue.type';

export enum AlertKindEnum {
  REGRESSED_ISSUE = 'REGRESSED_ISSUE',
  NEW_ISSUE = 'NEW_ISSUE',
  ISSUE_FREQUENCY = 'ISSUE_FREQUENCY',
  USERS_AFFECTED = 'USERS_AFFECTED',
  NEW_RELEASE_ISSUE = 'NEW_RELEASE_ISSUE',
  ERROR_SPIKE = 'ERROR_SPIKE',
  LOG_MATCH = 'LOG_MATCH',
  MONITOR_FAILED = 'MONITOR_FAILED',
}
registerEnumType(AlertKindEnum, {
  name: 'AlertKind',
  description: 'What fires a rule (docs/alerts.md, "Triggers").',
  valuesConfig: {
    REGRESSED_ISSUE: { description: 'A resolved or snoozed issue came back (docs/releases-and-lifecycle.md).' },
    NEW_ISSUE: { description: 'An issue was created.' },
    ISSUE_FREQUENCY: { description: 'An issue was seen more than `threshold` times in `windowMinutes`.' },
    USERS_AFFECTED: { description: 'More than `threshold` distinct users hit an issue in `windowMinutes`.' },
    NEW_RELEASE_ISSUE: { description: "An existing issue's first event in a release (per environment)." },
    ERROR_SPIKE: { description: "The project's errors exceeded `threshold` per minute over `windowMinutes`." },
    LOG_MATCH: { description: 'A log line at level error whose message contains `query` (ignoring case).' },
    MONITOR_FAILED: {
      description:
        "A cron or uptime monitor's issue opened or reopened: failures reached its tolerance (docs/monitors.md).",
    },
  },
});

export enum ChannelTypeEnum {
  WEBHOOK = 'WEBHOOK',
  SLACK = 'SLACK',
  EMAIL = 'EMAIL',
  TEAMS = 'TEAMS',
  DISCORD = 'DISCORD',
}
registerEnumType(ChannelTypeEnum, { name: 'AlertChannelType' });

export enum DeliveryStatusEnum {
  PENDING = 'pending',
  SENDING = 'sending',
  DELIVERED = 'delivered',
  FAILED = 'failed',
}
registerEnumType(DeliveryStatusEnum, { name: 'AlertDeliveryStatus' });

@InputType('AlertChannelInput')
export class AlertChannelInput {
  @Field(() => ChannelTypeEnum)
  type: ChannelTypeEnum;

  @Field(() => String, { nullable: true, description: 'WEBHOOK, SLACK, TEAMS and DISCORD: http(s) URL.' })
  url?: string | null;

  @Field(() => String, { nullable: true, description: 'EMAIL: the recipient.' })
  email?: string | null;
}

@InputType('TagFilterInput')
export class TagFilterInput {
  @Field(() => String)
  key: string;

  @Field(() => String)
  value: string;
}

@InputType('AlertFilterInput', { description: 'Conditions on a rule; every one given must hold. All optional.' })
export class AlertFilterInput {
  @Field(() => [String], { nullable: true, description: "Any of these environments (the event's or log's)." })
  environments?: string[] | null;

  @Field(() => LevelEnum, { nullable: true, description: 'Level at least: fatal > error > warning > info.' })
  minLevel?: LevelEnum | null;

  @Field(() => [TagFilterInput], { nullable: true, description: 'Every key:value pair must be a tag of the event.' })
  tags?: TagFilterInput[] | null;

  @Field(() => String, { nullable: true, description: 'Release glob: `*` any characters, `?` one (`shop@2.*`).' })
  release?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'true: only issues assigned to someone; false: only unassigned ones. Not for ERROR_SPIKE, LOG_MATCH.',
  })
  assigned?: boolean | null;
}

@ObjectType('TagFilter')
export class TagFilterType {
  @Field(() => String)
  key: string;

  @Field(() => String)
  value: string;
}

@ObjectType('AlertFilter', { description: "A rule's conditions; null fields do not filter." })
export class AlertFilterType {
  @Field(() => [String], { nullable: true })
  environments: string[] | null;

  @Field(() => LevelEnum, { nullable: true })
  minLevel: LevelEnum | null;

  @Field(() => [TagFilterType], { nullable: true })
  tags: TagFilterType[] | null;

  @Field(() => String, { nullable: true })
  release: string | null;

  @Field(() => Boolean, { nullable: true })
  assigned: boolean | null;
}

@ObjectType('AlertChannel')
export class AlertChannelType {
  @Field(() => ChannelTypeEnum)
  type: ChannelTypeEnum;

  @Field(() => String, {
    nullable: true,
    description:
      'WEBHOOK, SLACK, TEAMS and DISCORD. Owners and admins (session or ADMIN token) see it in full; others see only its origin: https://hooks.slack.com/…',
  })
  url: string | null;

  @Field(() => String, { nullable: true })
  email: string | null;

  /** Not in the schema: whose owners and admins see `url` in full (auth/secret-policy.ts). */
  projectId: string;
}

@ObjectType('AlertRule')
export class AlertRuleType {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  projectId: string;

  @Field(() => AlertKindEnum)
  kind: AlertKindEnum;

  @Field(() => AlertChannelType)
  channel: AlertChannelType;

  @Field(() => String, {
    nullable: true,
    description:
      'WEBHOOK only: the HMAC-SHA256 signing secret (see docs/alerts.md). Owners and admins (session or ADMIN token) see it in full; others see whsec_…<last 4>.',
  })
  secret: string | null;

  @Field(() => Boolean)
  enabled: boolean;

  @Field(() => String)
  createdAt: string;

  @Field(() => Int, {
    nullable: true,
    description: 'ISSUE_FREQUENCY, USERS_AFFECTED: more than this many; ERROR_SPIKE: more than this many per minute.',
  })
  threshold: number | null;

  @Field(() => Int, { nullable: true, description: 'The counting kinds: the window, in minutes (1 to 1440).' })
  windowMinutes: number | null;

  @Field(() => String, { nullable: true, description: 'LOG_MATCH: text the log message contains (ignoring case).' })
  query: string | null;

  @Field(() => AlertFilterType)
  filter: AlertFilterType;

  @Field(() => Int, {
    description:
      'Fires at most once per issue (per project for ERROR_SPIKE and LOG_MATCH) within this many minutes; the next alert says how many events came in between. Default 30; 0 = every time.',
  })
  actionIntervalMinutes: number;

  @Field(() => Int, {
    nullable: true,
    description: 'When set, firings are sent as one digest every this many minutes.',
  })
  digestMinutes: number | null;

  @Field(() => String, { nullable: true, description: 'Fires nothing before this time (muteAlertRule).' })
  mutedUntil: string | null;
}

export function toAlertRuleType(r: AlertRule): AlertRuleType {
  return {
    id: r.id,
    projectId: r.projectId,
    kind: r.kind as AlertKindEnum,
    channel: { type: r.channelType as ChannelTypeEnum, url: r.url, email: r.email, projectId: r.projectId },
    secret: r.secret,
    enabled: r.enabled,
    createdAt: r.createdAt.toISOString(),
    threshold: r.threshold,
    windowMinutes: r.windowMinutes,
    query: r.query,
    filter: {
      environments: r.filter?.environments ?? null,
      minLevel: (r.filter?.minLevel as LevelEnum | undefined) ?? null,
      tags: r.filter?.tags ?? null,
      release: r.filter?.release ?? null,
      assigned: r.filter?.assigned ?? null,
    },
    actionIntervalMinutes: r.actionIntervalMinutes,
    digestMinutes: r.digestMinutes,
    mutedUntil: r.mutedUntil?.toISOString() ?? null,
  };
}

@ObjectType('AlertDelivery', { description: 'One alert sent to one channel: the delivery log.' })
export class AlertDeliveryType {
  @Field(() => ID)
  id: string;

  @Field(() => AlertKindEnum)
  kind: AlertKindEnum;

  @Field(() => ID, { nullable: true })
  issueId: string | null;

  @Field(() => DeliveryStatusEnum)
  status: DeliveryStatusEnum;

  @Field(() => Int)
  attempts: number;

  @Field(() => String, { nullable: true })
  lastError: string | null;

  @Field(() => Int, { nullable: true, description: 'HTTP status of the last attempt, when there was one.' })
  lastStatus: number | null;

  @Field(() => String)
  createdAt: string;

  @Field(() => String, { nullable: true })
  deliveredAt: string | null;

  @Field(() => String, { nullable: true, description: 'When the next retry is due, while pending.' })
  nextAttemptAt: string | null;

  @Field(() => Boolean, {
    description: 'Sent with testAlertRule ("Send test notification"): one attempt, never retried, no issue behind it.',
  })
  test: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      "The start of the receiver's last answer (HTTP body or SMTP reply): at most 300 characters, control characters removed. Show it as text. Owners and admins (a session or an admin token) only: null for everyone else. Never kept for a receiver on a private address (TRACKER_ALLOW_PRIVATE_TARGETS).",
  })
  response: string | null;

  @Field(() => String, { nullable: true, description: 'When the last attempt was made.' })
  lastAttemptAt: string | null;

  /** Not in the schema: whose owners and admins see `response` (auth/secret-policy.ts). */
  projectId: string;
}

export function toAlertDeliveryType(d: AlertDelivery): AlertDeliveryType {
  return {
    id: d.id,
    kind: d.kind as AlertKindEnum,
    issueId: d.issueId,
    status: d.status as DeliveryStatusEnum,
    attempts: d.attempts,
    lastError: d.lastError,
    lastStatus: d.lastStatus,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    test: d.isTest ?? false,
    response: d.lastResponse ?? null,
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    projectId: d.projectId,
  };
}
