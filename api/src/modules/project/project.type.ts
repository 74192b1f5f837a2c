import { DEFAULT_PRIVACY_SETTINGS, formatDsn, type Project, type ProjectKey } from '@tracker/core';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { Context } from '../../context';

// Declared before ProjectType: tsc's decorator metadata reads it when ProjectType is defined
// ("Cannot access 'ProjectPrivacyType' before initialization" from the built dist otherwise).
@ObjectType('ProjectPrivacy')
export class ProjectPrivacyType {
  @Field(() => Boolean, {
    description:
      'Built-in scrubbing: values under password, secret, token, auth, cookie, session… keys, and card numbers. Default true.',
  })
  scrubDefaults: boolean;

  @Field(() => [String], {
    description: "The project's own key names, scrubbed like the built-in ones (case-insensitive substrings).",
  })
  sensitiveFields: string[];

  @Field(() => Boolean, { description: 'IPv4/IPv6 addresses in text, and user.ip_address / user.ip. Default false.' })
  scrubIpAddresses: boolean;
}

@ObjectType({ description: 'A project receives events through its DSN.' })
export class ProjectType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  name: string;

  @Field(() => String, {
    description:
      "Public, write-only key for the SDKs: https://et_<key>@<host>/<projectId>, with the project's newest enabled key; empty when every key is disabled.",
  })
  dsn: string;

  @Field(() => ID)
  organizationId: string;

  @Field(() => ProjectPrivacyType, {
    description: 'What the ingest edge scrubs from events, logs and feedback before they are queued (docs/privacy.md).',
  })
  privacy: ProjectPrivacyType;

  @Field(() => String, {
    nullable: true,
    description:
      "Where the issue page links an event's trace id: an http(s) URL with {traceId} and optionally {spanId}; null when not set.",
  })
  traceUrlTemplate: string | null;
}

@InputType('ProjectPrivacyInput', { description: 'Fields left out keep their value.' })
export class ProjectPrivacyInput {
  @Field(() => Boolean, { nullable: true })
  scrubDefaults?: boolean | null;

  @Field(() => [String], { nullable: true, description: 'Replaces the list: at most 50 names of 1 to 100 characters.' })
  sensitiveFields?: string[] | null;

  @Field(() => Boolean, { nullable: true })
  scrubIpAddresses?: boolean | null;
}

export async function toProjectType(ctx: Context, project: Project): Promise<ProjectType> {
  const key = await ctx.loaders.primaryKey.load(project.id);
  // A project just created comes back from the insert without its number (a column default).
  const number = project.number ?? (await ctx.loaders.projectNumber.load(project.id));
  return {
    id: project.id,
    name: project.name,
    organizationId: project.organizationId,
    dsn: key && number !== null ? formatDsn(ctx.config.publicUrl, key.publicKey, number) : '',
    // A project just created may come back from the insert without its column defaults.
    privacy: {
      scrubDefaults: project.scrubDefaults ?? DEFAULT_PRIVACY_SETTINGS.scrubDefaults,
      sensitiveFields: project.sensitiveFields ?? [],
      scrubIpAddresses: project.scrubIpAddresses ?? DEFAULT_PRIVACY_SETTINGS.scrubIpAddresses,
    },
    traceUrlTemplate: project.traceUrlTemplate ?? null,
  };
}

@ObjectType('ProjectKey', { description: 'A DSN key. Public by design: it can only send events.' })
export class ProjectKeyType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  publicKey: string;

  @Field(() => String)
  dsn: string;

  @Field(() => Boolean)
  enabled: boolean;

  @Field(() => Int, {
    nullable: true,
    description: 'Items per second for all this key sends (events, logs, feedback…); null = no per-key limit.',
  })
  rateLimitPerSecond: number | null;

  @Field(() => String)
  createdAt: string;

  @Field(() => String, { nullable: true })
  disabledAt: string | null;
}

export async function toProjectKeyType(ctx: Context, key: ProjectKey): Promise<ProjectKeyType> {
  const number = await ctx.loaders.projectNumber.load(key.projectId);
  return {
    id: key.id,
    publicKey: key.publicKey,
    dsn: number === null ? '' : formatDsn(ctx.config.publicUrl, key.publicKey, number),
    enabled: key.disabledAt === null,
    rateLimitPerSecond: key.rateLimitPerSecond,
    createdAt: key.createdAt.toISOString(),
    disabledAt: key.disabledAt?.toISOString() ?? null,
  };
}
