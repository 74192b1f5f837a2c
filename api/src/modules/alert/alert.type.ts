import type { AlertDelivery, AlertRule } from '@tracker/core';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum AlertKindEnum {
  REGRESSED_ISSUE = 'REGRESSED_ISSUE',
  NEW_ISSUE = 'NEW_ISSUE',
}
registerEnumType(AlertKindEnum, { name: 'AlertKind' });

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
      "The start of the receiver's last answer (HTTP body or SMTP reply): at most 300 characters, control characters removed. Show it as text.",
  })
  response: string | null;

  @Field(() => String, { nullable: true, description: 'When the last attempt was made.' })
  lastAttemptAt: string | null;
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
  };
}
