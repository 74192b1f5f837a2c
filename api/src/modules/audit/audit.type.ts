import type { AuditLogEntry } from '@tracker/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageInfo } from '../issue/issue.type';

@ObjectType('AuditActor', { description: 'Who made a change: a person (by session or API token) or the system.' })
export class AuditActorType {
  @Field(() => String, { description: 'USER (a session), API_TOKEN (a person through one of their tokens) or SYSTEM.' })
  type: 'USER' | 'API_TOKEN' | 'SYSTEM';

  @Field(() => String, {
    description: "The person's email at the time, or the system's name (stripe, operator, billing).",
  })
  label: string;

  @Field(() => ID, { nullable: true })
  userId: string | null;

  @Field(() => ID, { nullable: true })
  apiTokenId: string | null;

  @Field(() => String, { nullable: true, description: "The API token's name, while the token exists." })
  apiTokenName: string | null;

  @Field(() => String, { nullable: true, description: "The API token's prefix (eta_…), never its secret." })
  apiTokenPrefix: string | null;
}

@ObjectType('AuditTarget')
export class AuditTargetType {
  @Field(() => String, {
    description:
      'member, invitation, api_token, upload_token, project_key, project, alert_rule, organization, issue, user.',
  })
  type: string;

  @Field(() => String, { nullable: true })
  id: string | null;

  @Field(() => String, { nullable: true, description: 'Its name at the time (an email, a project name).' })
  label: string | null;
}

@ObjectType('AuditLogEntry')
export class AuditLogEntryType {
  @Field(() => ID)
  id: string;

  @Field(() => String, { description: 'What happened, `<target>.<verb>` (docs/accounts.md lists them).' })
  action: string;

  @Field(() => String, { description: 'When, ISO 8601.' })
  time: string;

  @Field(() => AuditActorType)
  actor: AuditActorType;

  @Field(() => AuditTargetType)
  target: AuditTargetType;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: '`{before, after}`: a summary of the change. Secrets never appear (redacted by key).',
  })
  changes: Record<string, unknown> | null;

  @Field(() => String, { nullable: true })
  clientAddress: string | null;

  @Field(() => String, { nullable: true })
  userAgent: string | null;
}

@ObjectType('AuditLogEdge')
export class AuditLogEdge {
  @Field(() => String)
  cursor: string;

  @Field(() => AuditLogEntryType)
  node: AuditLogEntryType;
}

@ObjectType('AuditLogConnection')
export class AuditLogConnection {
  @Field(() => [AuditLogEntryType])
  nodes: AuditLogEntryType[];

  @Field(() => [AuditLogEdge])
  edges: AuditLogEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;
}

@InputType('AuditLogFilter')
export class AuditLogFilterInput {
  @Field(() => String, {
    nullable: true,
    description: "A user's or API token's id, or an email or system name (exact, any case).",
  })
  actor?: string | null;

  @Field(() => String, { nullable: true, description: 'One action, e.g. member.role_changed.' })
  action?: string | null;

  @Field(() => String, { nullable: true, description: 'Only entries at or after this time (ISO 8601).' })
  since?: string | null;
}

const ACTOR_TYPES = { user: 'USER', api_token: 'API_TOKEN', system: 'SYSTEM' } as const;

export function toAuditLogEntryType(e: AuditLogEntry): AuditLogEntryType {
  return {
    id: e.id,
    action: e.action,
    time: e.at.toISOString(),
    actor: {
      type: ACTOR_TYPES[e.actorType],
      label: e.actorLabel,
      userId: e.actorUserId,
      apiTokenId: e.actorApiTokenId,
      apiTokenName: e.actorApiTokenName,
      apiTokenPrefix: e.actorApiTokenPrefix,
    },
    target: { type: e.targetType, id: e.targetId, label: e.targetLabel },
    changes: (e.changes as Record<string, unknown> | null) ?? null,
    clientAddress: e.clientAddress,
    userAgent: e.userAgent,
  };
}
