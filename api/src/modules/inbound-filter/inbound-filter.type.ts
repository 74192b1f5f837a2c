import {
  INBOUND_FILTERS,
  LEGACY_BROWSERS,
  type InboundFilterName,
  type LegacyBrowser,
  type ProjectInboundFilters,
} from '@tracker/core';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

/** GraphQL enums are upper case: `web_crawlers` → `WEB_CRAWLERS`. */
export const InboundFilterEnum = Object.fromEntries(INBOUND_FILTERS.map((f) => [f.toUpperCase(), f])) as Record<
  Uppercase<InboundFilterName>,
  InboundFilterName
>;
registerEnumType(InboundFilterEnum, { name: 'InboundFilter', description: 'An inbound filter (docs/ingest.md).' });

export const LegacyBrowserEnum = Object.fromEntries(LEGACY_BROWSERS.map((b) => [b.toUpperCase(), b])) as Record<
  Uppercase<LegacyBrowser>,
  LegacyBrowser
>;
registerEnumType(LegacyBrowserEnum, { name: 'LegacyBrowser' });

@ObjectType('LegacyBrowserMinVersion')
export class LegacyBrowserMinVersionType {
  @Field(() => LegacyBrowserEnum)
  browser: LegacyBrowser;

  @Field(() => Int, { description: 'Older major versions are dropped while the legacy browser filter is on.' })
  minVersion: number;
}

@ObjectType('InboundFilterCount')
export class InboundFilterCountType {
  @Field(() => InboundFilterEnum)
  filter: InboundFilterName;

  @Field(() => Int, {
    description: 'Error events this filter dropped in the last 30 days (UTC days), never charged to the quota.',
  })
  dropped: number;
}

@ObjectType('ProjectInboundFilters', {
  description: 'Error events the ingest edge drops before the quota is counted (docs/ingest.md, "Inbound filters").',
})
export class ProjectInboundFiltersType {
  @Field(() => ID)
  projectId: string;

  @Field(() => Boolean, {
    description: 'Errors from chrome-extension://, moz-extension://, safari-extension:// frames.',
  })
  browserExtensions: boolean;

  @Field(() => Boolean, { description: 'Errors from pages on localhost, 127.0.0.1 or ::1.' })
  localhost: boolean;

  @Field(() => Boolean, { description: 'Errors from browsers older than legacyBrowserMinVersions.' })
  legacyBrowsers: boolean;

  @Field(() => [LegacyBrowserMinVersionType])
  legacyBrowserMinVersions: LegacyBrowserMinVersionType[];

  @Field(() => Boolean, { description: 'Errors whose User-Agent is a web crawler.' })
  webCrawlers: boolean;

  @Field(() => [String], { description: 'Glob patterns on the message (and "Type: message"), case-insensitive.' })
  errorMessages: string[];

  @Field(() => [String], { description: 'Glob patterns on the release.' })
  releases: string[];

  @Field(() => [InboundFilterCountType], { description: 'Every filter with what it dropped in the last 30 days.' })
  dropped: InboundFilterCountType[];
}

@InputType('LegacyBrowserMinVersionInput')
export class LegacyBrowserMinVersionInput {
  @Field(() => LegacyBrowserEnum)
  browser: LegacyBrowser;

  @Field(() => Int, { description: '0 to 1,000.' })
  minVersion: number;
}

@InputType('ProjectInboundFiltersInput', { description: 'Fields left out keep their value.' })
export class ProjectInboundFiltersInput {
  @Field(() => Boolean, { nullable: true })
  browserExtensions?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  localhost?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  legacyBrowsers?: boolean | null;

  @Field(() => [LegacyBrowserMinVersionInput], { nullable: true, description: 'Only the browsers listed change.' })
  legacyBrowserMinVersions?: LegacyBrowserMinVersionInput[] | null;

  @Field(() => Boolean, { nullable: true })
  webCrawlers?: boolean | null;

  @Field(() => [String], { nullable: true, description: 'Replaces the list: at most 50 globs of 1 to 200 characters.' })
  errorMessages?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Replaces the list: at most 50 globs of 1 to 200 characters.' })
  releases?: string[] | null;
}

export function toProjectInboundFiltersType(f: ProjectInboundFilters): ProjectInboundFiltersType {
  const s = f.settings;
  return {
    projectId: f.projectId,
    browserExtensions: s.browserExtensions,
    localhost: s.localhost,
    legacyBrowsers: s.legacyBrowsers,
    legacyBrowserMinVersions: LEGACY_BROWSERS.map((browser) => ({
      browser,
      minVersion: s.legacyBrowserMinVersions[browser],
    })),
    webCrawlers: s.webCrawlers,
    errorMessages: s.errorMessages,
    releases: s.releases,
    dropped: f.dropped.map((d) => ({ filter: d.filter, dropped: d.count })),
  };
}
