import type { CheckIn, Monitor, MonitorEnvironmentState } from '@tracker/core';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum MonitorKindEnum {
  CRON = 'cron',
  UPTIME = 'uptime',
}
registerEnumType(MonitorKindEnum, {
  name: 'MonitorKind',
  description: 'CRON: fed by check-ins on a schedule. UPTIME: an http(s) URL the worker checks.',
});

export enum MonitorStatusEnum {
  OK = 'ok',
  FAILING = 'failing',
  PAUSED = 'paused',
  PENDING = 'pending',
}
registerEnumType(MonitorStatusEnum, {
  name: 'MonitorStatus',
  description: 'FAILING when any environment is failing; PENDING before the first check-in or check.',
});

@ObjectType('MonitorEnvironment', { description: "One environment's state of a monitor." })
export class MonitorEnvironmentType {
  @Field(() => String)
  environment: string;

  @Field(() => MonitorStatusEnum)
  status: MonitorStatusEnum;

  @Field(() => Int)
  consecutiveFailures: number;

  @Field(() => String, {
    nullable: true,
    description: 'The next slot a check-in (or check) is expected for. ISO 8601.',
  })
  expectedAt: string | null;

  @Field(() => String, { nullable: true })
  lastCheckInAt: string | null;

  @Field(() => ID, { nullable: true, description: 'The open issue of this environment, if any.' })
  issueId: string | null;
}

@ObjectType('CheckIn', { description: 'A check-in of a cron monitor, or one check of an uptime monitor.' })
export class CheckInType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  environment: string;

  @Field(() => String, { description: 'in_progress, ok, error, missed or timeout.' })
  status: string;

  @Field(() => Int, { nullable: true })
  durationMs: number | null;

  @Field(() => String, { nullable: true, description: 'The scheduled slot this check-in was for. ISO 8601.' })
  expectedAt: string | null;

  @Field(() => Int, { nullable: true, description: 'Uptime: the final HTTP status.' })
  statusCode: number | null;

  @Field(() => Int, { nullable: true, description: 'Uptime: time to first byte.' })
  ttfbMs: number | null;

  @Field(() => Int, { nullable: true, description: 'Uptime: the body size (the body itself is never stored).' })
  responseBytes: number | null;

  @Field(() => String, { nullable: true, description: "Uptime: the TLS certificate's expiry. ISO 8601." })
  tlsExpiresAt: string | null;

  @Field(() => String, { nullable: true, description: 'Why it failed: "HTTP 503", "timeout after 10 s", …' })
  error: string | null;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt: string;
}

@ObjectType('Monitor', { description: 'A cron or uptime monitor of a project (docs/monitors.md).' })
export class MonitorType {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  projectId: string;

  @Field(() => MonitorKindEnum)
  kind: MonitorKindEnum;

  @Field(() => String)
  slug: string;

  @Field(() => String)
  name: string;

  @Field(() => String, { nullable: true, description: 'Cron: the crontab, read in `timezone`.' })
  crontab: string | null;

  @Field(() => String)
  timezone: string;

  @Field(() => Int, { nullable: true, description: 'Cron: the interval schedule; uptime: minutes between checks.' })
  intervalMinutes: number | null;

  @Field(() => Int)
  checkinMarginMinutes: number;

  @Field(() => Int)
  maxRuntimeMinutes: number;

  @Field(() => Int)
  failureTolerance: number;

  @Field(() => Int)
  recoveryThreshold: number;

  @Field(() => String, { nullable: true })
  url: string | null;

  @Field(() => Int, { nullable: true })
  timeoutSeconds: number | null;

  @Field(() => Boolean)
  paused: boolean;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt: string;
}

@InputType('MonitorInput', { description: 'Fields left out keep their value (or take the default on create).' })
export class MonitorInputType {
  @Field(() => String, { nullable: true })
  slug?: string;

  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => String, { nullable: true, description: 'Cron: "0 2 * * *". Give this or intervalMinutes.' })
  crontab?: string;

  @Field(() => String, { nullable: true, description: 'IANA zone of the crontab; UTC by default.' })
  timezone?: string;

  @Field(() => Int, { nullable: true })
  intervalMinutes?: number;

  @Field(() => Int, { nullable: true })
  checkinMarginMinutes?: number;

  @Field(() => Int, { nullable: true })
  maxRuntimeMinutes?: number;

  @Field(() => Int, { nullable: true })
  failureTolerance?: number;

  @Field(() => Int, { nullable: true })
  recoveryThreshold?: number;

  @Field(() => String, { nullable: true })
  url?: string;

  @Field(() => Int, { nullable: true })
  timeoutSeconds?: number;
}

export function toMonitorType(m: Monitor): MonitorType {
  return {
    id: m.id,
    projectId: m.projectId,
    kind: m.kind as MonitorKindEnum,
    slug: m.slug,
    name: m.name,
    crontab: m.schedule?.type === 'crontab' ? m.schedule.crontab : null,
    timezone: m.schedule?.type === 'crontab' ? m.schedule.timezone : 'UTC',
    intervalMinutes: m.intervalMinutes,
    checkinMarginMinutes: m.checkinMarginMinutes,
    maxRuntimeMinutes: m.maxRuntimeMinutes,
    failureTolerance: m.failureTolerance,
    recoveryThreshold: m.recoveryThreshold,
    url: m.url,
    timeoutSeconds: m.timeoutMs == null ? null : Math.round(m.timeoutMs / 1000),
    paused: m.paused,
    createdAt: m.createdAt.toISOString(),
  };
}

export function toMonitorEnvironmentType(e: MonitorEnvironmentState): MonitorEnvironmentType {
  return {
    environment: e.environment,
    status: e.status as MonitorStatusEnum,
    consecutiveFailures: e.consecutiveFailures,
    expectedAt: e.expectedAt?.toISOString() ?? null,
    lastCheckInAt: e.lastCheckInAt?.toISOString() ?? null,
    issueId: e.issueId,
  };
}

export function toCheckInType(c: CheckIn): CheckInType {
  return {
    id: c.id,
    environment: c.environment,
    status: c.status,
    durationMs: c.durationMs,
    expectedAt: c.expectedAt?.toISOString() ?? null,
    statusCode: c.statusCode,
    ttfbMs: c.ttfbMs,
    responseBytes: c.responseBytes,
    tlsExpiresAt: c.tlsExpiresAt?.toISOString() ?? null,
    error: c.error,
    createdAt: c.createdAt.toISOString(),
  };
}
