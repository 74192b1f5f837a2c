/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type AlertChannelInput = {
  /** EMAIL: the recipient. */
  email?: string | null | undefined;
  type: AlertChannelType;
  /** WEBHOOK, SLACK, TEAMS and DISCORD: http(s) URL. */
  url?: string | null | undefined;
};

export type AlertChannelTarget =
  | 'EMAIL'
  | 'URL';

export type AlertChannelType =
  | 'DISCORD'
  | 'EMAIL'
  | 'SLACK'
  | 'TEAMS'
  | 'WEBHOOK';

export type AlertDeliveryStatus =
  | 'DELIVERED'
  | 'FAILED'
  | 'PENDING'
  | 'SENDING';

/** Conditions on a rule; every one given must hold. All optional. */
export type AlertFilterInput = {
  /** true: only issues assigned to someone; false: only unassigned ones. Not for ERROR_SPIKE, LOG_MATCH. */
  assigned?: boolean | null | undefined;
  /** Any of these environments (the event's or log's). */
  environments?: Array<string> | null | undefined;
  /** Level at least: fatal > error > warning > info. */
  minLevel?: Level | null | undefined;
  /** Release glob: `*` any characters, `?` one (`shop@2.*`). */
  release?: string | null | undefined;
  /** Every key:value pair must be a tag of the event. */
  tags?: Array<TagFilterInput> | null | undefined;
};

/** What fires a rule (docs/alerts.md, "Triggers"). */
export type AlertKind =
  /** The project's errors exceeded `threshold` per minute over `windowMinutes`. */
  | 'ERROR_SPIKE'
  /** An issue was seen more than `threshold` times in `windowMinutes`. */
  | 'ISSUE_FREQUENCY'
  /** A log line at level error whose message contains `query` (ignoring case). */
  | 'LOG_MATCH'
  /** A cron or uptime monitor's issue opened or reopened: failures reached its tolerance (docs/monitors.md). */
  | 'MONITOR_FAILED'
  /** An issue was created. */
  | 'NEW_ISSUE'
  /** An existing issue's first event in a release (per environment). */
  | 'NEW_RELEASE_ISSUE'
  /** A resolved or snoozed issue came back (docs/releases-and-lifecycle.md). */
  | 'REGRESSED_ISSUE'
  /** More than `threshold` distinct users hit an issue in `windowMinutes`. */
  | 'USERS_AFFECTED';

/** READ runs queries; WRITE also mutations; ADMIN also the admin mutations (members, tokens, deletes, keys, alerts, billing). */
export type ApiScope =
  | 'ADMIN'
  | 'READ'
  | 'WRITE';

export type AuditLogFilter = {
  /** One action, e.g. member.role_changed. */
  action?: string | null | undefined;
  /** A user's or API token's id, or an email or system name (exact, any case). */
  actor?: string | null | undefined;
  /** Only entries at or after this time (ISO 8601). */
  since?: string | null | undefined;
};

/** SESSIONS: from the sessions Sentry SDKs sent for the release (crash-free sessions and users as they count them). EVENTS: the release has no sessions; crash-free users is derived from the error events that name users. */
export type HealthBasis =
  | 'EVENTS'
  | 'SESSIONS';

/** An inbound filter (docs/ingest.md). */
export type InboundFilter =
  | 'BROWSER_EXTENSIONS'
  | 'ERROR_MESSAGES'
  | 'LEGACY_BROWSERS'
  | 'LOCALHOST'
  | 'RELEASES'
  | 'WEB_CRAWLERS';

export type InvitationStatus =
  | 'ACCEPTED'
  | 'EXPIRED'
  | 'PENDING'
  | 'REVOKED';

/** What happened to an issue. */
export type IssueActivityKind =
  | 'ALERT_SENT'
  | 'ASSIGNED'
  | 'COMMENTED'
  | 'DISCARDED'
  | 'FIRST_SEEN'
  | 'MERGED'
  | 'REGRESSED'
  | 'REOPENED'
  | 'RESOLVED'
  | 'SNOOZED'
  | 'UNMERGED';

export type IssueAssignedFilter =
  /** Assigned to the caller. */
  | 'ME'
  /** Assigned to nobody. */
  | 'NONE';

/** Descending; ties broken by id. */
export type IssueSort =
  /** Most events first. */
  | 'EVENTS'
  /** Newest issues first. */
  | 'FIRST_SEEN'
  /** Most recent activity first (the default). */
  | 'LAST_SEEN'
  /** Most users affected first. */
  | 'USERS';

export type IssueStatus =
  | 'OPEN'
  | 'RESOLVED'
  | 'SNOOZED';

export type LegacyBrowser =
  | 'CHROME'
  | 'EDGE'
  | 'FIREFOX'
  | 'IE'
  | 'OPERA'
  | 'SAFARI'
  | 'SAMSUNG';

export type LegacyBrowserMinVersionInput = {
  browser: LegacyBrowser;
  /** 0 to 1,000. */
  minVersion: number;
};

export type Level =
  | 'ERROR'
  | 'FATAL'
  | 'INFO'
  | 'WARNING';

/** A context attribute and the text its value must equal. */
export type LogAttributeFilter = {
  /** The attribute name, e.g. `http.route` (1 to 200 characters). */
  key: string;
  /** Compared with the value as text: `200` matches the number 200. */
  value: string;
};

/** All optional; given filters must all match. */
export type LogFilter = {
  /** Context attributes the log must carry with these values, compared as text (an OTLP log record's attributes); at most 5. */
  attributes?: Array<LogAttributeFilter> | null | undefined;
  environment?: string | null | undefined;
  /** ISO 8601, on the log's own timestamp: from ≤ t. */
  from?: string | null | undefined;
  /** Any of these levels; empty or absent: all. */
  levels?: Array<LogLevel> | null | undefined;
  release?: string | null | undefined;
  /** The `service` tag: an OpenTelemetry resource's service.name. */
  service?: string | null | undefined;
  /** Case-insensitive substring of the message (1 to 200 characters; % and _ are literal). */
  text?: string | null | undefined;
  /** ISO 8601: t < to. */
  to?: string | null | undefined;
};

export type LogLevel =
  | 'DEBUG'
  | 'ERROR'
  | 'INFO'
  | 'WARN';

/** OWNER: everything, including billing and owners. ADMIN: members, projects, keys, tokens, alerts. MEMBER: triage. */
export type MemberRole =
  | 'ADMIN'
  | 'MEMBER'
  | 'OWNER';

/** Fields left out keep their value (or take the default on create). */
export type MonitorInput = {
  checkinMarginMinutes?: number | null | undefined;
  /** Cron: "0 2 * * *". Give this or intervalMinutes. */
  crontab?: string | null | undefined;
  failureTolerance?: number | null | undefined;
  intervalMinutes?: number | null | undefined;
  maxRuntimeMinutes?: number | null | undefined;
  name?: string | null | undefined;
  recoveryThreshold?: number | null | undefined;
  slug?: string | null | undefined;
  timeoutSeconds?: number | null | undefined;
  /** IANA zone of the crontab; UTC by default. */
  timezone?: string | null | undefined;
  url?: string | null | undefined;
};

/** CRON: fed by check-ins on a schedule. UPTIME: an http(s) URL the worker checks. */
export type MonitorKind =
  | 'CRON'
  | 'UPTIME';

/** FAILING when any environment is failing; PENDING before the first check-in or check. */
export type MonitorStatus =
  | 'FAILING'
  | 'OK'
  | 'PAUSED'
  | 'PENDING';

/** Fields left out keep their value. */
export type ProjectInboundFiltersInput = {
  browserExtensions?: boolean | null | undefined;
  /** Replaces the list: at most 50 globs of 1 to 200 characters. */
  errorMessages?: Array<string> | null | undefined;
  /** Only the browsers listed change. */
  legacyBrowserMinVersions?: Array<LegacyBrowserMinVersionInput> | null | undefined;
  legacyBrowsers?: boolean | null | undefined;
  localhost?: boolean | null | undefined;
  /** Replaces the list: at most 50 globs of 1 to 200 characters. */
  releases?: Array<string> | null | undefined;
  webCrawlers?: boolean | null | undefined;
};

/** Fields left out keep their value. */
export type ProjectPrivacyInput = {
  scrubDefaults?: boolean | null | undefined;
  scrubIpAddresses?: boolean | null | undefined;
  /** Replaces the list: at most 50 names of 1 to 100 characters. */
  sensitiveFields?: Array<string> | null | undefined;
};

/** A chart range and its buckets: 12 × 5 minutes, 24 × 1 hour, 28 × 6 hours, 30 × 1 day (UTC). */
export type SeriesRange =
  | 'LAST_7_DAYS'
  | 'LAST_24_HOURS'
  | 'LAST_30_DAYS'
  | 'LAST_HOUR';

/** What ends a snooze. */
export type SnoozeKind =
  /** A number of further events (`forEvents`). */
  | 'EVENTS'
  /** A duration from when it was snoozed (`minutes`). */
  | 'MINUTES'
  /** A time (`until`). */
  | 'UNTIL'
  /** A number of further distinct users (`forUsers`). */
  | 'USERS';

export type SsoSettingsInput = {
  clientId: string;
  /** Required the first time; leave it out to keep the saved one. */
  clientSecret?: string | null | undefined;
  defaultRole?: MemberRole | null | undefined;
  emailDomains: Array<string>;
  /** The issuer URL; `/.well-known/openid-configuration` is read from it. https only. */
  issuerUrl: string;
  requireSso?: boolean | null | undefined;
};

export type TagFilterInput = {
  key: string;
  value: string;
};

/** Core Web Vitals. Milliseconds, except CLS (unitless). */
export type VitalMetric =
  | 'CLS'
  | 'FCP'
  | 'INP'
  | 'LCP'
  | 'TTFB';

/** All optional. Times are ISO 8601; the range is from ≤ t < to on the time a report was received. */
export type VitalsFilter = {
  environment?: string | null | undefined;
  /** Default: `to` minus 7 days. The range may span at most 366 days. */
  from?: string | null | undefined;
  release?: string | null | undefined;
  /** Default: now. */
  to?: string | null | undefined;
  /** One page: the URL as stored (no query or hash). */
  url?: string | null | undefined;
};

export type VitalsInterval =
  | 'DAY'
  | 'HOUR';

export type AccountQueryVariables = Exact<{ [key: string]: never; }>;


export type AccountQuery = { viewer: { id: string, email: string, emailVerified: boolean, pendingEmail: string | null } | null, sessions: Array<{ id: string, createdAt: string, expiresAt: string, current: boolean }> };

export type ChangeEmailMutationVariables = Exact<{
  currentPassword: string;
  newEmail: string;
}>;


export type ChangeEmailMutation = { changeEmail: { changed: boolean, pendingEmail: string | null, user: { email: string } } };

export type ChangePasswordMutationVariables = Exact<{
  currentPassword: string;
  newPassword: string;
  revokeApiTokens: boolean;
}>;


export type ChangePasswordMutation = { changePassword: { token: string } };

export type RevokeSessionMutationVariables = Exact<{
  id: string;
}>;


export type RevokeSessionMutation = { revokeSession: boolean };

export type RevokeOtherSessionsMutationVariables = Exact<{ [key: string]: never; }>;


export type RevokeOtherSessionsMutation = { revokeOtherSessions: number };

export type ConfirmEmailChangeMutationVariables = Exact<{
  token: string;
}>;


export type ConfirmEmailChangeMutation = { confirmEmailChange: { email: string } };

export type ResendEmailConfirmationMutationVariables = Exact<{ [key: string]: never; }>;


export type ResendEmailConfirmationMutation = { resendEmailConfirmation: boolean };

export type AdminOrganizationsQueryVariables = Exact<{
  after?: string | null | undefined;
}>;


export type AdminOrganizationsQuery = { adminOrganizations: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ id: string, name: string, slug: string, plan: string, memberCount: number, projectCount: number, liveSubscription: string | null, events: { used: number, limit: number }, logs: { used: number, limit: number } }> }, plans: Array<{ id: string, name: string }> };

export type AdminSetOrganizationPlanMutationVariables = Exact<{
  organizationId: string;
  plan: string;
  force?: boolean | null | undefined;
}>;


export type AdminSetOrganizationPlanMutation = { adminSetOrganizationPlan: { planBefore: string, overrodeSubscription: string | null, organization: { slug: string, plan: string } } };

export type AdminDeadLettersQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminDeadLettersQuery = { adminDeadLetters: { totalCount: number, nodes: Array<{ id: string, topic: string, kind: string | null, attempts: number, firstFailedAt: string, lastFailedAt: string, reason: string }> } };

export type AdminReplayDeadLettersMutationVariables = Exact<{
  ids?: Array<string> | string | null | undefined;
  all?: boolean | null | undefined;
}>;


export type AdminReplayDeadLettersMutation = { adminReplayDeadLetters: Array<string> };

export type AdminPurgeDeadLettersMutationVariables = Exact<{
  olderThanDays: number;
}>;


export type AdminPurgeDeadLettersMutation = { adminPurgeDeadLetters: number };

export type AdminInstanceQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminInstanceQuery = { adminInstance: { version: string, nodeVersion: string, databaseKind: string, databaseVersion: string, pendingMigrations: Array<string>, deadLetterCount: number, migrations: Array<{ name: string, timestamp: string }>, smtp: { configured: boolean, host: string | null, port: number | null, secure: boolean, from: string | null }, stripe: { configured: boolean, secretKey: boolean, webhookSecret: boolean, pricePro: boolean, priceBusiness: boolean, mode: string | null } } };

export type AdminSendTestEmailMutationVariables = Exact<{ [key: string]: never; }>;


export type AdminSendTestEmailMutation = { adminSendTestEmail: { to: string, response: string } };

export type AlertRulesQueryVariables = Exact<{
  projectId: string;
  deliveries: number;
}>;


export type AlertRulesQuery = { alertRules: Array<{ id: string, kind: AlertKind, enabled: boolean, createdAt: string, secret: string | null, masked: boolean, threshold: number | null, windowMinutes: number | null, query: string | null, actionIntervalMinutes: number, digestMinutes: number | null, mutedUntil: string | null, failing: boolean, recentFailures: number, filter: { environments: Array<string> | null, minLevel: Level | null, release: string | null, assigned: boolean | null, tags: Array<{ key: string, value: string }> | null }, channel: { type: AlertChannelType, url: string | null, email: string | null }, deliveries: Array<{ id: string, kind: AlertKind, status: AlertDeliveryStatus, attempts: number, lastError: string | null, lastStatus: number | null, createdAt: string, deliveredAt: string | null, nextAttemptAt: string | null, response: string | null, test: boolean }> }>, alertChannels: Array<{ type: AlertChannelType, name: string, target: AlertChannelTarget, available: boolean, unavailableReason: string | null, help: string }> };

export type CreateAlertRuleMutationVariables = Exact<{
  projectId: string;
  kind: AlertKind;
  channel: AlertChannelInput;
  threshold?: number | null | undefined;
  windowMinutes?: number | null | undefined;
  query?: string | null | undefined;
  filter?: AlertFilterInput | null | undefined;
  actionIntervalMinutes?: number | null | undefined;
  digestMinutes?: number | null | undefined;
}>;


export type CreateAlertRuleMutation = { createAlertRule: { id: string } };

export type UpdateAlertRuleSettingsMutationVariables = Exact<{
  id: string;
  kind: AlertKind;
  threshold?: number | null | undefined;
  windowMinutes?: number | null | undefined;
  query?: string | null | undefined;
  filter?: AlertFilterInput | null | undefined;
  actionIntervalMinutes?: number | null | undefined;
  digestMinutes?: number | null | undefined;
}>;


export type UpdateAlertRuleSettingsMutation = { updateAlertRule: { id: string } };

export type MuteAlertRuleMutationVariables = Exact<{
  id: string;
  until?: string | null | undefined;
}>;


export type MuteAlertRuleMutation = { muteAlertRule: { id: string, mutedUntil: string | null } };

export type UpdateAlertRuleMutationVariables = Exact<{
  id: string;
  enabled?: boolean | null | undefined;
}>;


export type UpdateAlertRuleMutation = { updateAlertRule: { id: string } };

export type TestAlertRuleMutationVariables = Exact<{
  id: string;
}>;


export type TestAlertRuleMutation = { testAlertRule: { id: string, kind: AlertKind, status: AlertDeliveryStatus, attempts: number, lastError: string | null, lastStatus: number | null, response: string | null, test: boolean, createdAt: string, deliveredAt: string | null, nextAttemptAt: string | null } };

export type DeleteAlertRuleMutationVariables = Exact<{
  id: string;
}>;


export type DeleteAlertRuleMutation = { deleteAlertRule: boolean };

export type AuditOrganizationsQueryVariables = Exact<{ [key: string]: never; }>;


export type AuditOrganizationsQuery = { viewer: { id: string, organizations: Array<{ id: string, slug: string, name: string }> } | null };

export type AuditLogQueryVariables = Exact<{
  organizationId: string;
  first: number;
  after?: string | null | undefined;
  filter?: AuditLogFilter | null | undefined;
}>;


export type AuditLogQuery = { auditLog: { nodes: Array<{ id: string, action: string, time: string, changes: Record<string, unknown> | null, clientAddress: string | null, userAgent: string | null, actor: { type: string, label: string, userId: string | null, apiTokenId: string | null, apiTokenName: string | null, apiTokenPrefix: string | null }, target: { type: string, id: string | null, label: string | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type StackFrameFieldsFragment = { filename: string, function: string | null, lineno: number | null, colno: number | null, inApp: boolean, minified: { filename: string, function: string | null, lineno: number | null, colno: number | null } | null, context: { pre: Array<string>, line: string, post: Array<string> } | null, vars: Array<{ name: string, value: string }> };

export type EventDetailFieldsFragment = { id: string, eventId: string, message: string, logMessage: string | null, type: string, level: Level, handled: boolean | null, environment: string, release: string | null, url: string | null, timestamp: string, user: Record<string, unknown> | null, context: Record<string, unknown> | null, fingerprint: Array<string> | null, componentStack: string | null, tags: Array<{ key: string, value: string }>, sdk: { name: string, version: string } | null, exceptions: Array<{ type: string, value: string, frames: Array<{ filename: string, function: string | null, lineno: number | null, colno: number | null, inApp: boolean, minified: { filename: string, function: string | null, lineno: number | null, colno: number | null } | null, context: { pre: Array<string>, line: string, post: Array<string> } | null, vars: Array<{ name: string, value: string }> }> }>, breadcrumbs: Array<{ timestamp: string, category: string, message: string | null, level: string | null, data: Record<string, unknown> | null }>, request: { method: string | null, url: string | null, queryString: string | null, data: unknown, headers: Array<{ name: string, value: string }> } | null, navigation: { oldest: string | null, older: string | null, newer: string | null, latest: string | null } };

export type EventJsonQueryVariables = Exact<{
  issueId: string;
  eventId: string;
}>;


export type EventJsonQuery = { issue: { id: string, projectId: string, event: { json: Record<string, unknown> } | null } | null };

export type IssueDetailQueryVariables = Exact<{
  id: string;
  eventsFirst: number;
  eventsAfter?: string | null | undefined;
  range: SeriesRange;
  eventId: string;
  picked: boolean;
  activityFirst: number;
  projectId: string;
}>;


export type IssueDetailQuery = { issue: { id: string, projectId: string, title: string, type: string, culprit: string | null, status: IssueStatus, level: Level, isRegression: boolean, eventCount: number, userCount: number, firstSeen: string, lastSeen: string, resolvedAt: string | null, snoozedUntil: string | null, discarded: boolean, discardedAt: string | null, mergedIssueCount: number, alertsMutedUntil: string | null, snooze: { kind: SnoozeKind, until: string | null, minutes: number | null, forEvents: number | null, forUsers: number | null, remaining: number | null } | null, assignee: { id: string, email: string } | null, activity: Array<{ id: string, kind: IssueActivityKind, createdAt: string, message: string, actor: { id: string, email: string } | null, comment: { id: string, body: string, createdAt: string, updatedAt: string, editable: boolean } | null }>, resolvedInRelease: { version: string, environment: string, deployedAt: string } | null, releases: Array<{ version: string, environment: string, firstSeen: string, lastSeen: string, eventCount: number }>, suspectCommits: Array<{ release: string, files: Array<string>, commit: { id: string, repository: string, authorName: string | null, authorEmail: string | null, message: string | null, timestamp: string | null } }>, tags: Array<{ key: string, count: number, values: Array<{ value: string, count: number }> }>, series: Array<{ ts: string, count: number }>, events: { pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ id: string, eventId: string, message: string, environment: string, release: string | null, timestamp: string, user: Record<string, unknown> | null }> }, latestEvent?: { id: string, eventId: string, message: string, logMessage: string | null, type: string, level: Level, handled: boolean | null, environment: string, release: string | null, url: string | null, timestamp: string, user: Record<string, unknown> | null, context: Record<string, unknown> | null, fingerprint: Array<string> | null, componentStack: string | null, tags: Array<{ key: string, value: string }>, sdk: { name: string, version: string } | null, exceptions: Array<{ type: string, value: string, frames: Array<{ filename: string, function: string | null, lineno: number | null, colno: number | null, inApp: boolean, minified: { filename: string, function: string | null, lineno: number | null, colno: number | null } | null, context: { pre: Array<string>, line: string, post: Array<string> } | null, vars: Array<{ name: string, value: string }> }> }>, breadcrumbs: Array<{ timestamp: string, category: string, message: string | null, level: string | null, data: Record<string, unknown> | null }>, request: { method: string | null, url: string | null, queryString: string | null, data: unknown, headers: Array<{ name: string, value: string }> } | null, navigation: { oldest: string | null, older: string | null, newer: string | null, latest: string | null } } | null, event?: { issueId: string, id: string, eventId: string, message: string, logMessage: string | null, type: string, level: Level, handled: boolean | null, environment: string, release: string | null, url: string | null, timestamp: string, user: Record<string, unknown> | null, context: Record<string, unknown> | null, fingerprint: Array<string> | null, componentStack: string | null, tags: Array<{ key: string, value: string }>, sdk: { name: string, version: string } | null, exceptions: Array<{ type: string, value: string, frames: Array<{ filename: string, function: string | null, lineno: number | null, colno: number | null, inApp: boolean, minified: { filename: string, function: string | null, lineno: number | null, colno: number | null } | null, context: { pre: Array<string>, line: string, post: Array<string> } | null, vars: Array<{ name: string, value: string }> }> }>, breadcrumbs: Array<{ timestamp: string, category: string, message: string | null, level: string | null, data: Record<string, unknown> | null }>, request: { method: string | null, url: string | null, queryString: string | null, data: unknown, headers: Array<{ name: string, value: string }> } | null, navigation: { oldest: string | null, older: string | null, newer: string | null, latest: string | null } } | null, feedback: Array<{ id: string, message: string, email: string | null, name: string | null, url: string | null, receivedAt: string }> } | null, project: { id: string, traceUrlTemplate: string | null, members: Array<{ userId: string, email: string }> } | null };

export type ResolveIssueMutationVariables = Exact<{
  id: string;
}>;


export type ResolveIssueMutation = { resolveIssue: { id: string } };

export type ReopenIssueMutationVariables = Exact<{
  id: string;
}>;


export type ReopenIssueMutation = { reopenIssue: { id: string } };

export type SnoozeIssueMutationVariables = Exact<{
  id: string;
  until?: string | null | undefined;
  minutes?: number | null | undefined;
  forEvents?: number | null | undefined;
  forUsers?: number | null | undefined;
}>;


export type SnoozeIssueMutation = { snoozeIssue: { id: string } };

export type UnmergeIssueMutationVariables = Exact<{
  id: string;
}>;


export type UnmergeIssueMutation = { unmergeIssue: Array<{ id: string, title: string }> };

export type DiscardIssueMutationVariables = Exact<{
  id: string;
  discard: boolean;
}>;


export type DiscardIssueMutation = { discardIssue: { id: string, discarded: boolean } };

export type AssignIssueMutationVariables = Exact<{
  id: string;
  userId?: string | null | undefined;
}>;


export type AssignIssueMutation = { assignIssue: { id: string } };

export type AddCommentMutationVariables = Exact<{
  issueId: string;
  body: string;
}>;


export type AddCommentMutation = { addComment: { id: string } };

export type UpdateCommentMutationVariables = Exact<{
  id: string;
  body: string;
}>;


export type UpdateCommentMutation = { updateComment: { id: string } };

export type DeleteCommentMutationVariables = Exact<{
  id: string;
}>;


export type DeleteCommentMutation = { deleteComment: string };

export type ProjectIssuesQueryVariables = Exact<{
  projectId: string;
  status?: IssueStatus | null | undefined;
  discarded?: boolean | null | undefined;
  first: number;
  after?: string | null | undefined;
  search?: string | null | undefined;
  query?: string | null | undefined;
  environment?: string | null | undefined;
  release?: string | null | undefined;
  sort: IssueSort;
  assigned?: IssueAssignedFilter | null | undefined;
}>;


export type ProjectIssuesQuery = { issues: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ id: string, title: string, culprit: string | null, level: Level, status: IssueStatus, isRegression: boolean, eventCount: number, userCount: number, lastSeen: string, assignee: { id: string, email: string } | null, series: Array<{ ts: string, count: number }> }> }, all: { totalCount: number }, allDiscarded: { totalCount: number }, savedSearches: Array<{ id: string, name: string, query: string }> };

export type CreateSavedSearchMutationVariables = Exact<{
  projectId: string;
  name: string;
  query: string;
}>;


export type CreateSavedSearchMutation = { createSavedSearch: { id: string } };

export type DeleteSavedSearchMutationVariables = Exact<{
  id: string;
}>;


export type DeleteSavedSearchMutation = { deleteSavedSearch: string };

export type ResolveIssuesMutationVariables = Exact<{
  ids: Array<string> | string;
}>;


export type ResolveIssuesMutation = { resolveIssues: Array<{ id: string }> };

export type MergeIssuesMutationVariables = Exact<{
  sourceId: string;
  targetId: string;
}>;


export type MergeIssuesMutation = { mergeIssues: { id: string, title: string } };

export type OrganizationsOfViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type OrganizationsOfViewerQuery = { viewer: { id: string, twoFactorEnabled: boolean, organizations: Array<{ id: string, slug: string }> } | null };

export type OrganizationSettingsQueryVariables = Exact<{
  id: string;
}>;


export type OrganizationSettingsQuery = { organization: { id: string, name: string, slug: string, plan: string, requireTwoFactor: boolean, projects: Array<{ id: string, name: string }>, usage: { period: string, periodEnd: string, events: { used: number, limit: number, remaining: number }, logs: { used: number, limit: number, remaining: number } } } | null };

export type RenameOrganizationMutationVariables = Exact<{
  id: string;
  name: string;
}>;


export type RenameOrganizationMutation = { renameOrganization: { id: string, name: string } };

export type SetOrganizationRequireTwoFactorMutationVariables = Exact<{
  id: string;
  required: boolean;
}>;


export type SetOrganizationRequireTwoFactorMutation = { setOrganizationRequireTwoFactor: { id: string, requireTwoFactor: boolean } };

export type ReleaseHealthFieldsFragment = { issuesIntroduced: number, regressions: number, basis: HealthBasis, crashFreeSessions: number | null, usersSeen: number, crashedUsers: number, crashFreeUsers: number | null, windowEvents: number, enoughData: boolean, eventsPerHour: number | null, previousVersion: string | null, previousIssuesIntroduced: number | null, previousRegressions: number | null, previousCrashFreeUsers: number | null, previousEventsPerHour: number | null, eventsPerHourRatio: number | null, sessions: { started: number } | null };

export type ReleaseIssueFieldsFragment = { totalCount: number, nodes: Array<{ environments: Array<string>, at: string, issue: { id: string, title: string, culprit: string | null, level: Level, status: IssueStatus, isRegression: boolean, eventCount: number, userCount: number, lastSeen: string } }> };

export type ReleaseDetailQueryVariables = Exact<{
  projectId: string;
  version: string;
  issues: number;
  files: number;
}>;


export type ReleaseDetailQuery = { project: { id: string, organizationId: string } | null, viewer: { id: string, organizations: Array<{ id: string, plan: string }> } | null, plans: Array<{ id: string, name: string, eventsPerMonth: number, logsPerMonth: number, retentionDays: number, releaseHealth: boolean }>, release: { version: string, dateCreated: string, dateReleased: string | null, deploys: Array<{ id: string, environment: string, deployedAt: string }>, newIssues: { totalCount: number, nodes: Array<{ environments: Array<string>, at: string, issue: { id: string, title: string, culprit: string | null, level: Level, status: IssueStatus, isRegression: boolean, eventCount: number, userCount: number, lastSeen: string } }> }, regressedIssues: { totalCount: number, nodes: Array<{ environments: Array<string>, at: string, issue: { id: string, title: string, culprit: string | null, level: Level, status: IssueStatus, isRegression: boolean, eventCount: number, userCount: number, lastSeen: string } }> }, resolvedIssues: { totalCount: number, nodes: Array<{ environments: Array<string>, at: string, issue: { id: string, title: string, culprit: string | null, level: Level, status: IssueStatus, isRegression: boolean, eventCount: number, userCount: number, lastSeen: string } }> }, sourceMaps: { totalCount: number, totalBytes: number, nodes: Array<{ filename: string, sizeBytes: number, uploadedAt: string }> }, artifactBundles: Array<{ checksum: string, dist: string | null, fileCount: number, assembledAt: string }>, commits: Array<{ id: string, repository: string, authorName: string | null, authorEmail: string | null, message: string | null, timestamp: string | null }> } | null };

export type ReleaseDetailHealthQueryVariables = Exact<{
  projectId: string;
  version: string;
}>;


export type ReleaseDetailHealthQuery = { release: { deploys: Array<{ id: string, health: { issuesIntroduced: number, regressions: number, basis: HealthBasis, crashFreeSessions: number | null, usersSeen: number, crashedUsers: number, crashFreeUsers: number | null, windowEvents: number, enoughData: boolean, eventsPerHour: number | null, previousVersion: string | null, previousIssuesIntroduced: number | null, previousRegressions: number | null, previousCrashFreeUsers: number | null, previousEventsPerHour: number | null, eventsPerHourRatio: number | null, sessions: { started: number } | null } | null }> } | null };

export type ReleaseVersionFieldsFragment = { dateReleased: string | null, commits: Array<{ id: string, repository: string, authorName: string | null, authorEmail: string | null, message: string | null, timestamp: string | null }> };

export type UnregisteredReleasesQueryVariables = Exact<{
  projectId: string;
}>;


export type UnregisteredReleasesQuery = { unregisteredReleases: Array<{ version: string, environments: Array<string>, firstSeen: string, lastSeen: string, eventCount: number }> };

export type ProjectInboundFiltersQueryVariables = Exact<{
  projectId: string;
}>;


export type ProjectInboundFiltersQuery = { projectInboundFilters: { projectId: string, browserExtensions: boolean, localhost: boolean, legacyBrowsers: boolean, webCrawlers: boolean, errorMessages: Array<string>, releases: Array<string>, legacyBrowserMinVersions: Array<{ browser: LegacyBrowser, minVersion: number }>, dropped: Array<{ filter: InboundFilter, dropped: number }> } };

export type UpdateProjectInboundFiltersMutationVariables = Exact<{
  projectId: string;
  input: ProjectInboundFiltersInput;
  confirmDropAll: boolean;
}>;


export type UpdateProjectInboundFiltersMutation = { updateProjectInboundFilters: { projectId: string } };

export type ProjectPrivacyQueryVariables = Exact<{
  projectId: string;
}>;


export type ProjectPrivacyQuery = { project: { id: string, privacy: { scrubDefaults: boolean, sensitiveFields: Array<string>, scrubIpAddresses: boolean } } | null, previewScrubbing: { sample: string, event: string } };

export type PreviewScrubbingQueryVariables = Exact<{
  projectId: string;
  sample?: string | null | undefined;
  draft?: ProjectPrivacyInput | null | undefined;
}>;


export type PreviewScrubbingQuery = { previewScrubbing: { sample: string, event: string } };

export type UpdateProjectPrivacyMutationVariables = Exact<{
  id: string;
  input: ProjectPrivacyInput;
}>;


export type UpdateProjectPrivacyMutation = { updateProjectPrivacy: { id: string, privacy: { scrubDefaults: boolean, sensitiveFields: Array<string>, scrubIpAddresses: boolean } } };

export type ProjectOrganizationQueryVariables = Exact<{
  id: string;
}>;


export type ProjectOrganizationQuery = { project: { id: string, organizationId: string, dsn: string, traceUrlTemplate: string | null } | null };

export type ProjectKeysQueryVariables = Exact<{
  projectId: string;
}>;


export type ProjectKeysQuery = { projectKeys: Array<{ id: string, publicKey: string, enabled: boolean, rateLimitPerSecond: number | null, createdAt: string, disabledAt: string | null }> };

export type UploadTokensQueryVariables = Exact<{
  projectId: string;
}>;


export type UploadTokensQuery = { uploadTokens: Array<{ id: string, name: string, prefix: string, createdAt: string, lastUsedAt: string | null, revokedAt: string | null }> };

export type MembersQueryVariables = Exact<{
  organizationId: string;
}>;


export type MembersQuery = { members: Array<{ userId: string, email: string, role: MemberRole, joinedAt: string, emailVerified: boolean, twoFactorEnabled: boolean }> };

export type InvitationsQueryVariables = Exact<{
  organizationId: string;
}>;


export type InvitationsQuery = { invitations: Array<{ id: string, email: string, role: MemberRole, createdAt: string, expiresAt: string }> };

export type ApiTokensQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiTokensQuery = { apiTokens: Array<{ id: string, name: string, scopes: Array<ApiScope>, prefix: string, createdAt: string, lastUsedAt: string | null, revokedAt: string | null }> };

export type RotateProjectKeyMutationVariables = Exact<{
  projectId: string;
  keepOldKeys: boolean;
}>;


export type RotateProjectKeyMutation = { rotateProjectKey: { id: string } };

export type DisableProjectKeyMutationVariables = Exact<{
  projectId: string;
  keyId: string;
}>;


export type DisableProjectKeyMutation = { disableProjectKey: { id: string } };

export type UpdateProjectKeyRateLimitMutationVariables = Exact<{
  projectId: string;
  keyId: string;
  rateLimitPerSecond?: number | null | undefined;
}>;


export type UpdateProjectKeyRateLimitMutation = { updateProjectKey: { id: string, rateLimitPerSecond: number | null } };

export type CreateUploadTokenMutationVariables = Exact<{
  projectId: string;
  name: string;
}>;


export type CreateUploadTokenMutation = { createUploadToken: { token: string, uploadToken: { name: string } } };

export type RevokeUploadTokenMutationVariables = Exact<{
  projectId: string;
  id: string;
}>;


export type RevokeUploadTokenMutation = { revokeUploadToken: { id: string } };

export type InviteMemberMutationVariables = Exact<{
  organizationId: string;
  email: string;
  role: MemberRole;
}>;


export type InviteMemberMutation = { inviteMember: { emailSent: boolean, link: string | null, invitation: { email: string } } };

export type RevokeInvitationMutationVariables = Exact<{
  id: string;
}>;


export type RevokeInvitationMutation = { revokeInvitation: { id: string } };

export type RemoveMemberMutationVariables = Exact<{
  organizationId: string;
  userId: string;
}>;


export type RemoveMemberMutation = { removeMember: boolean };

export type CreateApiTokenMutationVariables = Exact<{
  name: string;
  scopes: Array<ApiScope> | ApiScope;
}>;


export type CreateApiTokenMutation = { createApiToken: { token: string, apiToken: { name: string } } };

export type UpdateProjectTraceLinkMutationVariables = Exact<{
  id: string;
  template?: string | null | undefined;
}>;


export type UpdateProjectTraceLinkMutation = { updateProjectTraceLink: { id: string, traceUrlTemplate: string | null } };

export type RevokeApiTokenMutationVariables = Exact<{
  id: string;
}>;


export type RevokeApiTokenMutation = { revokeApiToken: { id: string } };

export type SsoPageQueryVariables = Exact<{ [key: string]: never; }>;


export type SsoPageQuery = { viewer: { id: string, organizations: Array<{ id: string, slug: string, name: string }> } | null };

export type SsoSettingsQueryVariables = Exact<{
  organizationId: string;
}>;


export type SsoSettingsQuery = { ssoSettings: { issuer: string, clientId: string, clientSecretHint: string, emailDomains: Array<string>, defaultRole: MemberRole, requireSso: boolean, callbackUrl: string, updatedAt: string } | null };

export type SaveSsoSettingsMutationVariables = Exact<{
  organizationId: string;
  input: SsoSettingsInput;
}>;


export type SaveSsoSettingsMutation = { saveSsoSettings: { issuer: string } };

export type DeleteSsoSettingsMutationVariables = Exact<{
  organizationId: string;
}>;


export type DeleteSsoSettingsMutation = { deleteSsoSettings: boolean };

export type TwoFactorStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type TwoFactorStatusQuery = { twoFactor: { enabled: boolean, enabledAt: string | null, recoveryCodesLeft: number }, viewer: { email: string, twoFactorEnrolmentRequired: boolean } | null };

export type StartTwoFactorEnrolmentMutationVariables = Exact<{ [key: string]: never; }>;


export type StartTwoFactorEnrolmentMutation = { startTwoFactorEnrolment: { secret: string, qrCodeDataUrl: string } };

export type ConfirmTwoFactorMutationVariables = Exact<{
  code: string;
}>;


export type ConfirmTwoFactorMutation = { confirmTwoFactor: Array<string> };

export type DisableTwoFactorMutationVariables = Exact<{
  code: string;
}>;


export type DisableTwoFactorMutation = { disableTwoFactor: boolean };

export type RegenerateRecoveryCodesMutationVariables = Exact<{
  code: string;
}>;


export type RegenerateRecoveryCodesMutation = { regenerateRecoveryCodes: Array<string> };

export type PlanFieldsFragment = { id: string, name: string, eventsPerMonth: number, logsPerMonth: number, retentionDays: number, releaseHealth: boolean };

export type AdminViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminViewerQuery = { viewer: { id: string, isInstanceAdmin: boolean | null } | null };

export type ProjectSetupQueryVariables = Exact<{
  projectId: string;
}>;


export type ProjectSetupQuery = { project: { id: string, organizationId: string } | null, viewer: { id: string, organizations: Array<{ id: string, plan: string }> } | null, plans: Array<{ id: string, name: string, releaseHealth: boolean }>, issues: { totalCount: number } };

export type AlertMutePageQueryVariables = Exact<{
  projectId: string;
  issueId: string;
  withIssue: boolean;
}>;


export type AlertMutePageQuery = { alertRules: Array<{ id: string, kind: AlertKind, mutedUntil: string | null, channel: { type: AlertChannelType } }>, issue?: { id: string, projectId: string, title: string, alertsMutedUntil: string | null } | null };

export type MuteAlertRuleFromLinkMutationVariables = Exact<{
  id: string;
  until?: string | null | undefined;
}>;


export type MuteAlertRuleFromLinkMutation = { muteAlertRule: { id: string } };

export type MuteIssueAlertsMutationVariables = Exact<{
  issueId: string;
  until?: string | null | undefined;
}>;


export type MuteIssueAlertsMutation = { muteIssueAlerts: { id: string } };

export type BillingQueryVariables = Exact<{
  projectId: string;
}>;


export type BillingQuery = { project: { organizationId: string } | null };

export type BillingDetailsQueryVariables = Exact<{
  organizationId: string;
}>;


export type BillingDetailsQuery = { organization: { id: string, name: string, slug: string, usage: { period: string, periodEnd: string, events: { used: number, limit: number, remaining: number }, logs: { used: number, limit: number, remaining: number } } } | null, billing: { configured: boolean, plan: string, availablePlans: Array<string>, status: string | null, currentPeriodEnd: string | null, cancelAtPeriodEnd: boolean, pastDueSince: string | null, graceEndsAt: string | null, hasBillingAccount: boolean }, plans: Array<{ id: string, name: string, eventsPerMonth: number, logsPerMonth: number, retentionDays: number, releaseHealth: boolean }> };

export type CreateCheckoutSessionMutationVariables = Exact<{
  organizationId: string;
  plan: string;
}>;


export type CreateCheckoutSessionMutation = { createCheckoutSession: { url: string } };

export type CreateBillingPortalSessionMutationVariables = Exact<{
  organizationId: string;
}>;


export type CreateBillingPortalSessionMutation = { createBillingPortalSession: { url: string } };

export type ProjectFeedbackQueryVariables = Exact<{
  projectId: string;
  first: number;
  after?: string | null | undefined;
}>;


export type ProjectFeedbackQuery = { feedback: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ id: string, message: string, email: string | null, name: string | null, url: string | null, eventId: string | null, receivedAt: string, issue: { id: string, title: string } | null, event: { eventId: string, release: string | null, environment: string, url: string | null } | null }> } };

export type ProjectLogsQueryVariables = Exact<{
  projectId: string;
  filter: LogFilter;
  first: number;
  after?: string | null | undefined;
}>;


export type ProjectLogsQuery = { logs: { pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ id: string, level: LogLevel, message: string, context: Record<string, unknown> | null, tags: Record<string, unknown>, environment: string, release: string | null, timestamp: string }> } };

export type ProjectMonitorsQueryVariables = Exact<{
  projectId: string;
}>;


export type ProjectMonitorsQuery = { monitors: Array<{ id: string, slug: string, name: string, kind: MonitorKind, crontab: string | null, timezone: string, intervalMinutes: number | null, url: string | null, paused: boolean, status: MonitorStatus, checkinMarginMinutes: number, maxRuntimeMinutes: number, failureTolerance: number, recoveryThreshold: number, timeoutSeconds: number | null, environments: Array<{ environment: string, status: MonitorStatus, expectedAt: string | null }>, checkIns: Array<{ id: string, status: string, durationMs: number | null, statusCode: number | null, error: string | null, tlsExpiresAt: string | null, createdAt: string }> }> };

export type CreateMonitorFromPageMutationVariables = Exact<{
  projectId: string;
  kind: MonitorKind;
  input: MonitorInput;
}>;


export type CreateMonitorFromPageMutation = { createMonitor: { id: string } };

export type UpdateMonitorFromPageMutationVariables = Exact<{
  id: string;
  input: MonitorInput;
}>;


export type UpdateMonitorFromPageMutation = { updateMonitor: { id: string } };

export type PauseMonitorFromPageMutationVariables = Exact<{
  id: string;
  paused: boolean;
}>;


export type PauseMonitorFromPageMutation = { pauseMonitor: { id: string } };

export type DeleteMonitorFromPageMutationVariables = Exact<{
  id: string;
}>;


export type DeleteMonitorFromPageMutation = { deleteMonitor: string };

export type ProjectVitalsQueryVariables = Exact<{
  projectId: string;
  filter: VitalsFilter;
  interval: VitalsInterval;
  first: number;
}>;


export type ProjectVitalsQuery = { vitals: { from: string, to: string, pageViews: number, metrics: Array<{ metric: VitalMetric, count: number, p75: number | null, goodShare: number | null, needsImprovementShare: number | null, poorShare: number | null, thresholds: { good: number, poor: number } }> }, vitalsByUrl: Array<{ url: string, pageViews: number, metrics: Array<{ metric: VitalMetric, p75: number | null }> }>, vitalsTimeSeries: { interval: VitalsInterval, buckets: Array<{ start: string, pageViews: number, lcp: number | null, inp: number | null, cls: number | null, fcp: number | null, ttfb: number | null }> }, releases: Array<{ version: string, environment: string }> };

export type ProjectReleasesQueryVariables = Exact<{
  projectId: string;
  first: number;
}>;


export type ProjectReleasesQuery = { project: { id: string, organizationId: string } | null, viewer: { id: string, organizations: Array<{ id: string, slug: string, name: string, plan: string }> } | null, plans: Array<{ id: string, name: string, eventsPerMonth: number, logsPerMonth: number, retentionDays: number, releaseHealth: boolean }>, releases: Array<{ id: string, version: string, environment: string, deployedAt: string, dateReleased: string | null, commits: Array<{ id: string, repository: string, authorName: string | null, authorEmail: string | null, message: string | null, timestamp: string | null }> }> };

export type ProjectReleaseHealthQueryVariables = Exact<{
  projectId: string;
  first: number;
}>;


export type ProjectReleaseHealthQuery = { releases: Array<{ id: string, version: string, environment: string, deployedAt: string, dateReleased: string | null, health: { issuesIntroduced: number, regressions: number, basis: HealthBasis, crashFreeSessions: number | null, usersSeen: number, crashedUsers: number, crashFreeUsers: number | null, windowEvents: number, enoughData: boolean, eventsPerHour: number | null, previousVersion: string | null, previousIssuesIntroduced: number | null, previousRegressions: number | null, previousCrashFreeUsers: number | null, previousEventsPerHour: number | null, eventsPerHourRatio: number | null, sessions: { started: number } | null } | null, commits: Array<{ id: string, repository: string, authorName: string | null, authorEmail: string | null, message: string | null, timestamp: string | null }> }> };

export type MarkReleaseMutationVariables = Exact<{
  projectId: string;
  version: string;
  environment?: string | null | undefined;
}>;


export type MarkReleaseMutation = { markRelease: { id: string, version: string, environment: string, deployedAt: string } };

export type ProjectQueryVariables = Exact<{
  id: string;
}>;


export type ProjectQuery = { project: { id: string, name: string, dsn: string, organizationId: string } | null };

export type CreateProjectMutationVariables = Exact<{
  organizationId: string;
  name: string;
}>;


export type CreateProjectMutation = { createProject: { id: string } };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { id: string, email: string, isInstanceAdmin: boolean | null, twoFactorEnrolmentRequired: boolean, organizations: Array<{ id: string, slug: string, name: string, plan: string, projects: Array<{ id: string, name: string }> }> } | null };

export type FirstProjectQueryVariables = Exact<{ [key: string]: never; }>;


export type FirstProjectQuery = { viewer: { id: string, organizations: Array<{ id: string, projects: Array<{ id: string }> }> } | null };

export type RequestPasswordResetMutationVariables = Exact<{
  email: string;
}>;


export type RequestPasswordResetMutation = { requestPasswordReset: { emailConfigured: boolean } };

export type InvitationPreviewQueryVariables = Exact<{
  token: string;
}>;


export type InvitationPreviewQuery = { invitation: { organizationName: string, email: string, role: MemberRole, status: InvitationStatus, expiresAt: string } | null };

export type AcceptInvitationMutationVariables = Exact<{
  token: string;
}>;


export type AcceptInvitationMutation = { acceptInvitation: { id: string, projects: Array<{ id: string }> } };

export type SignupWithInvitationMutationVariables = Exact<{
  token: string;
  password: string;
}>;


export type SignupWithInvitationMutation = { signupWithInvitation: { token: string } };

export type SignInMutationVariables = Exact<{
  email: string;
  password: string;
}>;


export type SignInMutation = { signIn: { twoFactorChallenge: string | null, twoFactorEnrolmentRequired: boolean, session: { token: string } | null } };

export type SignInWithTwoFactorMutationVariables = Exact<{
  challenge: string;
  code: string;
}>;


export type SignInWithTwoFactorMutation = { signInWithTwoFactor: { token: string, user: { twoFactorEnabled: boolean } } };

export type StartSsoLoginMutationVariables = Exact<{
  email: string;
}>;


export type StartSsoLoginMutation = { startSsoLogin: { authorizationUrl: string, state: string } };

export type LogoutMutationVariables = Exact<{ [key: string]: never; }>;


export type LogoutMutation = { logout: boolean };

export type OrgProjectsQueryVariables = Exact<{ [key: string]: never; }>;


export type OrgProjectsQuery = { viewer: { id: string, organizations: Array<{ slug: string, projects: Array<{ id: string }> }> } | null };

export type PasswordResetQueryVariables = Exact<{
  token: string;
}>;


export type PasswordResetQuery = { passwordReset: { email: string } | null };

export type ResetPasswordMutationVariables = Exact<{
  token: string;
  newPassword: string;
}>;


export type ResetPasswordMutation = { resetPassword: boolean };

export type SignupMutationVariables = Exact<{
  email: string;
  password: string;
  organizationName: string;
}>;


export type SignupMutation = { signup: { token: string | null, checkEmail: boolean } };

export type CompleteSsoLoginMutationVariables = Exact<{
  parameters: string;
}>;


export type CompleteSsoLoginMutation = { completeSsoLogin: { token: string } };

export type ConfirmEmailAddressMutationVariables = Exact<{
  token: string;
}>;


export type ConfirmEmailAddressMutation = { confirmEmailAddress: { email: string, organizationSlug: string | null } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const StackFrameFieldsFragmentDoc = new TypedDocumentString(`
    fragment StackFrameFields on Frame {
  filename
  function
  lineno
  colno
  inApp
  minified {
    filename
    function
    lineno
    colno
  }
  context {
    pre
    line
    post
  }
  vars {
    name
    value
  }
}
    `, {"fragmentName":"StackFrameFields"}) as unknown as TypedDocumentString<StackFrameFieldsFragment, unknown>;
export const EventDetailFieldsFragmentDoc = new TypedDocumentString(`
    fragment EventDetailFields on Event {
  id
  eventId
  message
  logMessage
  type
  level
  handled
  environment
  release
  url
  timestamp
  user
  tags {
    key
    value
  }
  context
  sdk {
    name
    version
  }
  fingerprint
  exceptions {
    type
    value
    frames {
      ...StackFrameFields
    }
  }
  breadcrumbs {
    timestamp
    category
    message
    level
    data
  }
  request {
    method
    url
    queryString
    headers {
      name
      value
    }
    data
  }
  componentStack
  navigation {
    oldest
    older
    newer
    latest
  }
}
    fragment StackFrameFields on Frame {
  filename
  function
  lineno
  colno
  inApp
  minified {
    filename
    function
    lineno
    colno
  }
  context {
    pre
    line
    post
  }
  vars {
    name
    value
  }
}`, {"fragmentName":"EventDetailFields"}) as unknown as TypedDocumentString<EventDetailFieldsFragment, unknown>;
export const ReleaseHealthFieldsFragmentDoc = new TypedDocumentString(`
    fragment ReleaseHealthFields on ReleaseHealth {
  issuesIntroduced
  regressions
  basis
  crashFreeSessions
  sessions {
    started
  }
  usersSeen
  crashedUsers
  crashFreeUsers
  windowEvents
  enoughData
  eventsPerHour
  previousVersion
  previousIssuesIntroduced
  previousRegressions
  previousCrashFreeUsers
  previousEventsPerHour
  eventsPerHourRatio
}
    `, {"fragmentName":"ReleaseHealthFields"}) as unknown as TypedDocumentString<ReleaseHealthFieldsFragment, unknown>;
export const ReleaseIssueFieldsFragmentDoc = new TypedDocumentString(`
    fragment ReleaseIssueFields on ReleaseIssueList {
  totalCount
  nodes {
    environments
    at
    issue {
      id
      title
      culprit
      level
      status
      isRegression
      eventCount
      userCount
      lastSeen
    }
  }
}
    `, {"fragmentName":"ReleaseIssueFields"}) as unknown as TypedDocumentString<ReleaseIssueFieldsFragment, unknown>;
export const ReleaseVersionFieldsFragmentDoc = new TypedDocumentString(`
    fragment ReleaseVersionFields on Release {
  dateReleased
  commits {
    id
    repository
    authorName
    authorEmail
    message
    timestamp
  }
}
    `, {"fragmentName":"ReleaseVersionFields"}) as unknown as TypedDocumentString<ReleaseVersionFieldsFragment, unknown>;
export const PlanFieldsFragmentDoc = new TypedDocumentString(`
    fragment PlanFields on PlanInfo {
  id
  name
  eventsPerMonth
  logsPerMonth
  retentionDays
  releaseHealth
}
    `, {"fragmentName":"PlanFields"}) as unknown as TypedDocumentString<PlanFieldsFragment, unknown>;
export const AccountDocument = new TypedDocumentString(`
    query Account {
  viewer {
    id
    email
    emailVerified
    pendingEmail
  }
  sessions {
    id
    createdAt
    expiresAt
    current
  }
}
    `) as unknown as TypedDocumentString<AccountQuery, AccountQueryVariables>;
export const ChangeEmailDocument = new TypedDocumentString(`
    mutation ChangeEmail($currentPassword: String!, $newEmail: String!) {
  changeEmail(currentPassword: $currentPassword, newEmail: $newEmail) {
    changed
    pendingEmail
    user {
      email
    }
  }
}
    `) as unknown as TypedDocumentString<ChangeEmailMutation, ChangeEmailMutationVariables>;
export const ChangePasswordDocument = new TypedDocumentString(`
    mutation ChangePassword($currentPassword: String!, $newPassword: String!, $revokeApiTokens: Boolean!) {
  changePassword(
    currentPassword: $currentPassword
    newPassword: $newPassword
    revokeApiTokens: $revokeApiTokens
  ) {
    token
  }
}
    `) as unknown as TypedDocumentString<ChangePasswordMutation, ChangePasswordMutationVariables>;
export const RevokeSessionDocument = new TypedDocumentString(`
    mutation RevokeSession($id: ID!) {
  revokeSession(id: $id)
}
    `) as unknown as TypedDocumentString<RevokeSessionMutation, RevokeSessionMutationVariables>;
export const RevokeOtherSessionsDocument = new TypedDocumentString(`
    mutation RevokeOtherSessions {
  revokeOtherSessions
}
    `) as unknown as TypedDocumentString<RevokeOtherSessionsMutation, RevokeOtherSessionsMutationVariables>;
export const ConfirmEmailChangeDocument = new TypedDocumentString(`
    mutation ConfirmEmailChange($token: String!) {
  confirmEmailChange(token: $token) {
    email
  }
}
    `) as unknown as TypedDocumentString<ConfirmEmailChangeMutation, ConfirmEmailChangeMutationVariables>;
export const ResendEmailConfirmationDocument = new TypedDocumentString(`
    mutation ResendEmailConfirmation {
  resendEmailConfirmation
}
    `) as unknown as TypedDocumentString<ResendEmailConfirmationMutation, ResendEmailConfirmationMutationVariables>;
export const AdminOrganizationsDocument = new TypedDocumentString(`
    query AdminOrganizations($after: String) {
  adminOrganizations(first: 50, after: $after) {
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      id
      name
      slug
      plan
      memberCount
      projectCount
      liveSubscription
      events {
        used
        limit
      }
      logs {
        used
        limit
      }
    }
  }
  plans {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<AdminOrganizationsQuery, AdminOrganizationsQueryVariables>;
export const AdminSetOrganizationPlanDocument = new TypedDocumentString(`
    mutation AdminSetOrganizationPlan($organizationId: ID!, $plan: String!, $force: Boolean) {
  adminSetOrganizationPlan(
    organizationId: $organizationId
    plan: $plan
    force: $force
  ) {
    planBefore
    overrodeSubscription
    organization {
      slug
      plan
    }
  }
}
    `) as unknown as TypedDocumentString<AdminSetOrganizationPlanMutation, AdminSetOrganizationPlanMutationVariables>;
export const AdminDeadLettersDocument = new TypedDocumentString(`
    query AdminDeadLetters {
  adminDeadLetters(first: 100) {
    totalCount
    nodes {
      id
      topic
      kind
      attempts
      firstFailedAt
      lastFailedAt
      reason
    }
  }
}
    `) as unknown as TypedDocumentString<AdminDeadLettersQuery, AdminDeadLettersQueryVariables>;
export const AdminReplayDeadLettersDocument = new TypedDocumentString(`
    mutation AdminReplayDeadLetters($ids: [ID!], $all: Boolean) {
  adminReplayDeadLetters(ids: $ids, all: $all)
}
    `) as unknown as TypedDocumentString<AdminReplayDeadLettersMutation, AdminReplayDeadLettersMutationVariables>;
export const AdminPurgeDeadLettersDocument = new TypedDocumentString(`
    mutation AdminPurgeDeadLetters($olderThanDays: Int!) {
  adminPurgeDeadLetters(olderThanDays: $olderThanDays)
}
    `) as unknown as TypedDocumentString<AdminPurgeDeadLettersMutation, AdminPurgeDeadLettersMutationVariables>;
export const AdminInstanceDocument = new TypedDocumentString(`
    query AdminInstance {
  adminInstance {
    version
    nodeVersion
    databaseKind
    databaseVersion
    migrations {
      name
      timestamp
    }
    pendingMigrations
    deadLetterCount
    smtp {
      configured
      host
      port
      secure
      from
    }
    stripe {
      configured
      secretKey
      webhookSecret
      pricePro
      priceBusiness
      mode
    }
  }
}
    `) as unknown as TypedDocumentString<AdminInstanceQuery, AdminInstanceQueryVariables>;
export const AdminSendTestEmailDocument = new TypedDocumentString(`
    mutation AdminSendTestEmail {
  adminSendTestEmail {
    to
    response
  }
}
    `) as unknown as TypedDocumentString<AdminSendTestEmailMutation, AdminSendTestEmailMutationVariables>;
export const AlertRulesDocument = new TypedDocumentString(`
    query AlertRules($projectId: ID!, $deliveries: Int!) {
  alertRules(projectId: $projectId) {
    id
    kind
    enabled
    createdAt
    secret
    masked
    threshold
    windowMinutes
    query
    actionIntervalMinutes
    digestMinutes
    mutedUntil
    filter {
      environments
      minLevel
      tags {
        key
        value
      }
      release
      assigned
    }
    channel {
      type
      url
      email
    }
    deliveries(first: $deliveries) {
      id
      kind
      status
      attempts
      lastError
      lastStatus
      createdAt
      deliveredAt
      nextAttemptAt
      response
      test
    }
    failing
    recentFailures
  }
  alertChannels {
    type
    name
    target
    available
    unavailableReason
    help
  }
}
    `) as unknown as TypedDocumentString<AlertRulesQuery, AlertRulesQueryVariables>;
export const CreateAlertRuleDocument = new TypedDocumentString(`
    mutation CreateAlertRule($projectId: ID!, $kind: AlertKind!, $channel: AlertChannelInput!, $threshold: Int, $windowMinutes: Int, $query: String, $filter: AlertFilterInput, $actionIntervalMinutes: Int, $digestMinutes: Int) {
  createAlertRule(
    projectId: $projectId
    kind: $kind
    channel: $channel
    threshold: $threshold
    windowMinutes: $windowMinutes
    query: $query
    filter: $filter
    actionIntervalMinutes: $actionIntervalMinutes
    digestMinutes: $digestMinutes
  ) {
    id
  }
}
    `) as unknown as TypedDocumentString<CreateAlertRuleMutation, CreateAlertRuleMutationVariables>;
export const UpdateAlertRuleSettingsDocument = new TypedDocumentString(`
    mutation UpdateAlertRuleSettings($id: ID!, $kind: AlertKind!, $threshold: Int, $windowMinutes: Int, $query: String, $filter: AlertFilterInput, $actionIntervalMinutes: Int, $digestMinutes: Int) {
  updateAlertRule(
    id: $id
    kind: $kind
    threshold: $threshold
    windowMinutes: $windowMinutes
    query: $query
    filter: $filter
    actionIntervalMinutes: $actionIntervalMinutes
    digestMinutes: $digestMinutes
  ) {
    id
  }
}
    `) as unknown as TypedDocumentString<UpdateAlertRuleSettingsMutation, UpdateAlertRuleSettingsMutationVariables>;
export const MuteAlertRuleDocument = new TypedDocumentString(`
    mutation MuteAlertRule($id: ID!, $until: String) {
  muteAlertRule(id: $id, until: $until) {
    id
    mutedUntil
  }
}
    `) as unknown as TypedDocumentString<MuteAlertRuleMutation, MuteAlertRuleMutationVariables>;
export const UpdateAlertRuleDocument = new TypedDocumentString(`
    mutation UpdateAlertRule($id: ID!, $enabled: Boolean) {
  updateAlertRule(id: $id, enabled: $enabled) {
    id
  }
}
    `) as unknown as TypedDocumentString<UpdateAlertRuleMutation, UpdateAlertRuleMutationVariables>;
export const TestAlertRuleDocument = new TypedDocumentString(`
    mutation TestAlertRule($id: ID!) {
  testAlertRule(id: $id) {
    id
    kind
    status
    attempts
    lastError
    lastStatus
    response
    test
    createdAt
    deliveredAt
    nextAttemptAt
  }
}
    `) as unknown as TypedDocumentString<TestAlertRuleMutation, TestAlertRuleMutationVariables>;
export const DeleteAlertRuleDocument = new TypedDocumentString(`
    mutation DeleteAlertRule($id: ID!) {
  deleteAlertRule(id: $id)
}
    `) as unknown as TypedDocumentString<DeleteAlertRuleMutation, DeleteAlertRuleMutationVariables>;
export const AuditOrganizationsDocument = new TypedDocumentString(`
    query AuditOrganizations {
  viewer {
    id
    organizations {
      id
      slug
      name
    }
  }
}
    `) as unknown as TypedDocumentString<AuditOrganizationsQuery, AuditOrganizationsQueryVariables>;
export const AuditLogDocument = new TypedDocumentString(`
    query AuditLog($organizationId: ID!, $first: Int!, $after: String, $filter: AuditLogFilter) {
  auditLog(
    organizationId: $organizationId
    first: $first
    after: $after
    filter: $filter
  ) {
    nodes {
      id
      action
      time
      actor {
        type
        label
        userId
        apiTokenId
        apiTokenName
        apiTokenPrefix
      }
      target {
        type
        id
        label
      }
      changes
      clientAddress
      userAgent
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<AuditLogQuery, AuditLogQueryVariables>;
export const EventJsonDocument = new TypedDocumentString(`
    query EventJson($issueId: ID!, $eventId: ID!) {
  issue(id: $issueId) {
    id
    projectId
    event(id: $eventId) {
      json
    }
  }
}
    `) as unknown as TypedDocumentString<EventJsonQuery, EventJsonQueryVariables>;
export const IssueDetailDocument = new TypedDocumentString(`
    query IssueDetail($id: ID!, $eventsFirst: Int!, $eventsAfter: String, $range: SeriesRange!, $eventId: ID!, $picked: Boolean!, $activityFirst: Int!, $projectId: ID!) {
  issue(id: $id) {
    id
    projectId
    title
    type
    culprit
    status
    level
    isRegression
    eventCount
    userCount
    firstSeen
    lastSeen
    resolvedAt
    snoozedUntil
    snooze {
      kind
      until
      minutes
      forEvents
      forUsers
      remaining
    }
    discarded
    discardedAt
    mergedIssueCount
    alertsMutedUntil
    assignee {
      id
      email
    }
    activity(first: $activityFirst) {
      id
      kind
      actor {
        id
        email
      }
      createdAt
      message
      comment {
        id
        body
        createdAt
        updatedAt
        editable
      }
    }
    resolvedInRelease {
      version
      environment
      deployedAt
    }
    releases {
      version
      environment
      firstSeen
      lastSeen
      eventCount
    }
    suspectCommits {
      release
      files
      commit {
        id
        repository
        authorName
        authorEmail
        message
        timestamp
      }
    }
    tags {
      key
      count
      values {
        value
        count
      }
    }
    series: eventSeries(range: $range) {
      ts
      count
    }
    events(first: $eventsFirst, after: $eventsAfter) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        eventId
        message
        environment
        release
        timestamp
        user
      }
    }
    latestEvent @skip(if: $picked) {
      ...EventDetailFields
    }
    event(id: $eventId) @include(if: $picked) {
      issueId
      ...EventDetailFields
    }
    feedback {
      id
      message
      email
      name
      url
      receivedAt
    }
  }
  project(id: $projectId) {
    id
    traceUrlTemplate
    members {
      userId
      email
    }
  }
}
    fragment StackFrameFields on Frame {
  filename
  function
  lineno
  colno
  inApp
  minified {
    filename
    function
    lineno
    colno
  }
  context {
    pre
    line
    post
  }
  vars {
    name
    value
  }
}
fragment EventDetailFields on Event {
  id
  eventId
  message
  logMessage
  type
  level
  handled
  environment
  release
  url
  timestamp
  user
  tags {
    key
    value
  }
  context
  sdk {
    name
    version
  }
  fingerprint
  exceptions {
    type
    value
    frames {
      ...StackFrameFields
    }
  }
  breadcrumbs {
    timestamp
    category
    message
    level
    data
  }
  request {
    method
    url
    queryString
    headers {
      name
      value
    }
    data
  }
  componentStack
  navigation {
    oldest
    older
    newer
    latest
  }
}`) as unknown as TypedDocumentString<IssueDetailQuery, IssueDetailQueryVariables>;
export const ResolveIssueDocument = new TypedDocumentString(`
    mutation ResolveIssue($id: ID!) {
  resolveIssue(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<ResolveIssueMutation, ResolveIssueMutationVariables>;
export const ReopenIssueDocument = new TypedDocumentString(`
    mutation ReopenIssue($id: ID!) {
  reopenIssue(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<ReopenIssueMutation, ReopenIssueMutationVariables>;
export const SnoozeIssueDocument = new TypedDocumentString(`
    mutation SnoozeIssue($id: ID!, $until: String, $minutes: Int, $forEvents: Int, $forUsers: Int) {
  snoozeIssue(
    id: $id
    until: $until
    minutes: $minutes
    forEvents: $forEvents
    forUsers: $forUsers
  ) {
    id
  }
}
    `) as unknown as TypedDocumentString<SnoozeIssueMutation, SnoozeIssueMutationVariables>;
export const UnmergeIssueDocument = new TypedDocumentString(`
    mutation UnmergeIssue($id: ID!) {
  unmergeIssue(id: $id) {
    id
    title
  }
}
    `) as unknown as TypedDocumentString<UnmergeIssueMutation, UnmergeIssueMutationVariables>;
export const DiscardIssueDocument = new TypedDocumentString(`
    mutation DiscardIssue($id: ID!, $discard: Boolean!) {
  discardIssue(id: $id, discard: $discard) {
    id
    discarded
  }
}
    `) as unknown as TypedDocumentString<DiscardIssueMutation, DiscardIssueMutationVariables>;
export const AssignIssueDocument = new TypedDocumentString(`
    mutation AssignIssue($id: ID!, $userId: ID) {
  assignIssue(id: $id, userId: $userId) {
    id
  }
}
    `) as unknown as TypedDocumentString<AssignIssueMutation, AssignIssueMutationVariables>;
export const AddCommentDocument = new TypedDocumentString(`
    mutation AddComment($issueId: ID!, $body: String!) {
  addComment(issueId: $issueId, body: $body) {
    id
  }
}
    `) as unknown as TypedDocumentString<AddCommentMutation, AddCommentMutationVariables>;
export const UpdateCommentDocument = new TypedDocumentString(`
    mutation UpdateComment($id: ID!, $body: String!) {
  updateComment(id: $id, body: $body) {
    id
  }
}
    `) as unknown as TypedDocumentString<UpdateCommentMutation, UpdateCommentMutationVariables>;
export const DeleteCommentDocument = new TypedDocumentString(`
    mutation DeleteComment($id: ID!) {
  deleteComment(id: $id)
}
    `) as unknown as TypedDocumentString<DeleteCommentMutation, DeleteCommentMutationVariables>;
export const ProjectIssuesDocument = new TypedDocumentString(`
    query ProjectIssues($projectId: ID!, $status: IssueStatus, $discarded: Boolean, $first: Int!, $after: String, $search: String, $query: String, $environment: String, $release: String, $sort: IssueSort!, $assigned: IssueAssignedFilter) {
  issues(
    projectId: $projectId
    status: $status
    discarded: $discarded
    first: $first
    after: $after
    search: $search
    query: $query
    environment: $environment
    release: $release
    sort: $sort
    assigned: $assigned
  ) {
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      id
      title
      culprit
      level
      status
      isRegression
      eventCount
      userCount
      lastSeen
      assignee {
        id
        email
      }
      series(hours: 24) {
        ts
        count
      }
    }
  }
  all: issues(projectId: $projectId, first: 1) {
    totalCount
  }
  allDiscarded: issues(projectId: $projectId, first: 1, discarded: true) {
    totalCount
  }
  savedSearches(projectId: $projectId) {
    id
    name
    query
  }
}
    `) as unknown as TypedDocumentString<ProjectIssuesQuery, ProjectIssuesQueryVariables>;
export const CreateSavedSearchDocument = new TypedDocumentString(`
    mutation CreateSavedSearch($projectId: ID!, $name: String!, $query: String!) {
  createSavedSearch(projectId: $projectId, name: $name, query: $query) {
    id
  }
}
    `) as unknown as TypedDocumentString<CreateSavedSearchMutation, CreateSavedSearchMutationVariables>;
export const DeleteSavedSearchDocument = new TypedDocumentString(`
    mutation DeleteSavedSearch($id: ID!) {
  deleteSavedSearch(id: $id)
}
    `) as unknown as TypedDocumentString<DeleteSavedSearchMutation, DeleteSavedSearchMutationVariables>;
export const ResolveIssuesDocument = new TypedDocumentString(`
    mutation ResolveIssues($ids: [ID!]!) {
  resolveIssues(ids: $ids) {
    id
  }
}
    `) as unknown as TypedDocumentString<ResolveIssuesMutation, ResolveIssuesMutationVariables>;
export const MergeIssuesDocument = new TypedDocumentString(`
    mutation MergeIssues($sourceId: ID!, $targetId: ID!) {
  mergeIssues(sourceId: $sourceId, targetId: $targetId) {
    id
    title
  }
}
    `) as unknown as TypedDocumentString<MergeIssuesMutation, MergeIssuesMutationVariables>;
export const OrganizationsOfViewerDocument = new TypedDocumentString(`
    query OrganizationsOfViewer {
  viewer {
    id
    twoFactorEnabled
    organizations {
      id
      slug
    }
  }
}
    `) as unknown as TypedDocumentString<OrganizationsOfViewerQuery, OrganizationsOfViewerQueryVariables>;
export const OrganizationSettingsDocument = new TypedDocumentString(`
    query OrganizationSettings($id: ID!) {
  organization(id: $id) {
    id
    name
    slug
    plan
    requireTwoFactor
    projects {
      id
      name
    }
    usage {
      period
      periodEnd
      events {
        used
        limit
        remaining
      }
      logs {
        used
        limit
        remaining
      }
    }
  }
}
    `) as unknown as TypedDocumentString<OrganizationSettingsQuery, OrganizationSettingsQueryVariables>;
export const RenameOrganizationDocument = new TypedDocumentString(`
    mutation RenameOrganization($id: ID!, $name: String!) {
  renameOrganization(id: $id, name: $name) {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<RenameOrganizationMutation, RenameOrganizationMutationVariables>;
export const SetOrganizationRequireTwoFactorDocument = new TypedDocumentString(`
    mutation SetOrganizationRequireTwoFactor($id: ID!, $required: Boolean!) {
  setOrganizationRequireTwoFactor(organizationId: $id, required: $required) {
    id
    requireTwoFactor
  }
}
    `) as unknown as TypedDocumentString<SetOrganizationRequireTwoFactorMutation, SetOrganizationRequireTwoFactorMutationVariables>;
export const ReleaseDetailDocument = new TypedDocumentString(`
    query ReleaseDetail($projectId: ID!, $version: String!, $issues: Int!, $files: Int!) {
  project(id: $projectId) {
    id
    organizationId
  }
  viewer {
    id
    organizations {
      id
      plan
    }
  }
  plans {
    ...PlanFields
  }
  release(projectId: $projectId, version: $version) {
    version
    dateCreated
    dateReleased
    deploys {
      id
      environment
      deployedAt
    }
    newIssues(first: $issues) {
      ...ReleaseIssueFields
    }
    regressedIssues(first: $issues) {
      ...ReleaseIssueFields
    }
    resolvedIssues(first: $issues) {
      ...ReleaseIssueFields
    }
    sourceMaps(first: $files) {
      totalCount
      totalBytes
      nodes {
        filename
        sizeBytes
        uploadedAt
      }
    }
    artifactBundles(first: 25) {
      checksum
      dist
      fileCount
      assembledAt
    }
    commits(first: 100) {
      id
      repository
      authorName
      authorEmail
      message
      timestamp
    }
  }
}
    fragment ReleaseIssueFields on ReleaseIssueList {
  totalCount
  nodes {
    environments
    at
    issue {
      id
      title
      culprit
      level
      status
      isRegression
      eventCount
      userCount
      lastSeen
    }
  }
}
fragment PlanFields on PlanInfo {
  id
  name
  eventsPerMonth
  logsPerMonth
  retentionDays
  releaseHealth
}`) as unknown as TypedDocumentString<ReleaseDetailQuery, ReleaseDetailQueryVariables>;
export const ReleaseDetailHealthDocument = new TypedDocumentString(`
    query ReleaseDetailHealth($projectId: ID!, $version: String!) {
  release(projectId: $projectId, version: $version) {
    deploys {
      id
      health {
        ...ReleaseHealthFields
      }
    }
  }
}
    fragment ReleaseHealthFields on ReleaseHealth {
  issuesIntroduced
  regressions
  basis
  crashFreeSessions
  sessions {
    started
  }
  usersSeen
  crashedUsers
  crashFreeUsers
  windowEvents
  enoughData
  eventsPerHour
  previousVersion
  previousIssuesIntroduced
  previousRegressions
  previousCrashFreeUsers
  previousEventsPerHour
  eventsPerHourRatio
}`) as unknown as TypedDocumentString<ReleaseDetailHealthQuery, ReleaseDetailHealthQueryVariables>;
export const UnregisteredReleasesDocument = new TypedDocumentString(`
    query UnregisteredReleases($projectId: ID!) {
  unregisteredReleases(projectId: $projectId, first: 50) {
    version
    environments
    firstSeen
    lastSeen
    eventCount
  }
}
    `) as unknown as TypedDocumentString<UnregisteredReleasesQuery, UnregisteredReleasesQueryVariables>;
export const ProjectInboundFiltersDocument = new TypedDocumentString(`
    query ProjectInboundFilters($projectId: ID!) {
  projectInboundFilters(projectId: $projectId) {
    projectId
    browserExtensions
    localhost
    legacyBrowsers
    legacyBrowserMinVersions {
      browser
      minVersion
    }
    webCrawlers
    errorMessages
    releases
    dropped {
      filter
      dropped
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectInboundFiltersQuery, ProjectInboundFiltersQueryVariables>;
export const UpdateProjectInboundFiltersDocument = new TypedDocumentString(`
    mutation UpdateProjectInboundFilters($projectId: ID!, $input: ProjectInboundFiltersInput!, $confirmDropAll: Boolean!) {
  updateProjectInboundFilters(
    projectId: $projectId
    input: $input
    confirmDropAll: $confirmDropAll
  ) {
    projectId
  }
}
    `) as unknown as TypedDocumentString<UpdateProjectInboundFiltersMutation, UpdateProjectInboundFiltersMutationVariables>;
export const ProjectPrivacyDocument = new TypedDocumentString(`
    query ProjectPrivacy($projectId: ID!) {
  project(id: $projectId) {
    id
    privacy {
      scrubDefaults
      sensitiveFields
      scrubIpAddresses
    }
  }
  previewScrubbing(projectId: $projectId) {
    sample
    event
  }
}
    `) as unknown as TypedDocumentString<ProjectPrivacyQuery, ProjectPrivacyQueryVariables>;
export const PreviewScrubbingDocument = new TypedDocumentString(`
    query PreviewScrubbing($projectId: ID!, $sample: String, $draft: ProjectPrivacyInput) {
  previewScrubbing(projectId: $projectId, sample: $sample, draft: $draft) {
    sample
    event
  }
}
    `) as unknown as TypedDocumentString<PreviewScrubbingQuery, PreviewScrubbingQueryVariables>;
export const UpdateProjectPrivacyDocument = new TypedDocumentString(`
    mutation UpdateProjectPrivacy($id: ID!, $input: ProjectPrivacyInput!) {
  updateProjectPrivacy(id: $id, input: $input) {
    id
    privacy {
      scrubDefaults
      sensitiveFields
      scrubIpAddresses
    }
  }
}
    `) as unknown as TypedDocumentString<UpdateProjectPrivacyMutation, UpdateProjectPrivacyMutationVariables>;
export const ProjectOrganizationDocument = new TypedDocumentString(`
    query ProjectOrganization($id: ID!) {
  project(id: $id) {
    id
    organizationId
    dsn
    traceUrlTemplate
  }
}
    `) as unknown as TypedDocumentString<ProjectOrganizationQuery, ProjectOrganizationQueryVariables>;
export const ProjectKeysDocument = new TypedDocumentString(`
    query ProjectKeys($projectId: ID!) {
  projectKeys(projectId: $projectId) {
    id
    publicKey
    enabled
    rateLimitPerSecond
    createdAt
    disabledAt
  }
}
    `) as unknown as TypedDocumentString<ProjectKeysQuery, ProjectKeysQueryVariables>;
export const UploadTokensDocument = new TypedDocumentString(`
    query UploadTokens($projectId: ID!) {
  uploadTokens(projectId: $projectId) {
    id
    name
    prefix
    createdAt
    lastUsedAt
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<UploadTokensQuery, UploadTokensQueryVariables>;
export const MembersDocument = new TypedDocumentString(`
    query Members($organizationId: ID!) {
  members(organizationId: $organizationId) {
    userId
    email
    role
    joinedAt
    emailVerified
    twoFactorEnabled
  }
}
    `) as unknown as TypedDocumentString<MembersQuery, MembersQueryVariables>;
export const InvitationsDocument = new TypedDocumentString(`
    query Invitations($organizationId: ID!) {
  invitations(organizationId: $organizationId) {
    id
    email
    role
    createdAt
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<InvitationsQuery, InvitationsQueryVariables>;
export const ApiTokensDocument = new TypedDocumentString(`
    query ApiTokens {
  apiTokens {
    id
    name
    scopes
    prefix
    createdAt
    lastUsedAt
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<ApiTokensQuery, ApiTokensQueryVariables>;
export const RotateProjectKeyDocument = new TypedDocumentString(`
    mutation RotateProjectKey($projectId: ID!, $keepOldKeys: Boolean!) {
  rotateProjectKey(projectId: $projectId, keepOldKeys: $keepOldKeys) {
    id
  }
}
    `) as unknown as TypedDocumentString<RotateProjectKeyMutation, RotateProjectKeyMutationVariables>;
export const DisableProjectKeyDocument = new TypedDocumentString(`
    mutation DisableProjectKey($projectId: ID!, $keyId: ID!) {
  disableProjectKey(projectId: $projectId, keyId: $keyId) {
    id
  }
}
    `) as unknown as TypedDocumentString<DisableProjectKeyMutation, DisableProjectKeyMutationVariables>;
export const UpdateProjectKeyRateLimitDocument = new TypedDocumentString(`
    mutation UpdateProjectKeyRateLimit($projectId: ID!, $keyId: ID!, $rateLimitPerSecond: Int) {
  updateProjectKey(
    projectId: $projectId
    keyId: $keyId
    rateLimitPerSecond: $rateLimitPerSecond
  ) {
    id
    rateLimitPerSecond
  }
}
    `) as unknown as TypedDocumentString<UpdateProjectKeyRateLimitMutation, UpdateProjectKeyRateLimitMutationVariables>;
export const CreateUploadTokenDocument = new TypedDocumentString(`
    mutation CreateUploadToken($projectId: ID!, $name: String!) {
  createUploadToken(projectId: $projectId, name: $name) {
    token
    uploadToken {
      name
    }
  }
}
    `) as unknown as TypedDocumentString<CreateUploadTokenMutation, CreateUploadTokenMutationVariables>;
export const RevokeUploadTokenDocument = new TypedDocumentString(`
    mutation RevokeUploadToken($projectId: ID!, $id: ID!) {
  revokeUploadToken(projectId: $projectId, id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<RevokeUploadTokenMutation, RevokeUploadTokenMutationVariables>;
export const InviteMemberDocument = new TypedDocumentString(`
    mutation InviteMember($organizationId: ID!, $email: String!, $role: MemberRole!) {
  inviteMember(organizationId: $organizationId, email: $email, role: $role) {
    emailSent
    link
    invitation {
      email
    }
  }
}
    `) as unknown as TypedDocumentString<InviteMemberMutation, InviteMemberMutationVariables>;
export const RevokeInvitationDocument = new TypedDocumentString(`
    mutation RevokeInvitation($id: ID!) {
  revokeInvitation(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<RevokeInvitationMutation, RevokeInvitationMutationVariables>;
export const RemoveMemberDocument = new TypedDocumentString(`
    mutation RemoveMember($organizationId: ID!, $userId: ID!) {
  removeMember(organizationId: $organizationId, userId: $userId)
}
    `) as unknown as TypedDocumentString<RemoveMemberMutation, RemoveMemberMutationVariables>;
export const CreateApiTokenDocument = new TypedDocumentString(`
    mutation CreateApiToken($name: String!, $scopes: [ApiScope!]!) {
  createApiToken(name: $name, scopes: $scopes) {
    token
    apiToken {
      name
    }
  }
}
    `) as unknown as TypedDocumentString<CreateApiTokenMutation, CreateApiTokenMutationVariables>;
export const UpdateProjectTraceLinkDocument = new TypedDocumentString(`
    mutation UpdateProjectTraceLink($id: ID!, $template: String) {
  updateProjectTraceLink(id: $id, template: $template) {
    id
    traceUrlTemplate
  }
}
    `) as unknown as TypedDocumentString<UpdateProjectTraceLinkMutation, UpdateProjectTraceLinkMutationVariables>;
export const RevokeApiTokenDocument = new TypedDocumentString(`
    mutation RevokeApiToken($id: ID!) {
  revokeApiToken(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<RevokeApiTokenMutation, RevokeApiTokenMutationVariables>;
export const SsoPageDocument = new TypedDocumentString(`
    query SsoPage {
  viewer {
    id
    organizations {
      id
      slug
      name
    }
  }
}
    `) as unknown as TypedDocumentString<SsoPageQuery, SsoPageQueryVariables>;
export const SsoSettingsDocument = new TypedDocumentString(`
    query SsoSettings($organizationId: ID!) {
  ssoSettings(organizationId: $organizationId) {
    issuer
    clientId
    clientSecretHint
    emailDomains
    defaultRole
    requireSso
    callbackUrl
    updatedAt
  }
}
    `) as unknown as TypedDocumentString<SsoSettingsQuery, SsoSettingsQueryVariables>;
export const SaveSsoSettingsDocument = new TypedDocumentString(`
    mutation SaveSsoSettings($organizationId: ID!, $input: SsoSettingsInput!) {
  saveSsoSettings(organizationId: $organizationId, input: $input) {
    issuer
  }
}
    `) as unknown as TypedDocumentString<SaveSsoSettingsMutation, SaveSsoSettingsMutationVariables>;
export const DeleteSsoSettingsDocument = new TypedDocumentString(`
    mutation DeleteSsoSettings($organizationId: ID!) {
  deleteSsoSettings(organizationId: $organizationId)
}
    `) as unknown as TypedDocumentString<DeleteSsoSettingsMutation, DeleteSsoSettingsMutationVariables>;
export const TwoFactorStatusDocument = new TypedDocumentString(`
    query TwoFactorStatus {
  twoFactor {
    enabled
    enabledAt
    recoveryCodesLeft
  }
  viewer {
    email
    twoFactorEnrolmentRequired
  }
}
    `) as unknown as TypedDocumentString<TwoFactorStatusQuery, TwoFactorStatusQueryVariables>;
export const StartTwoFactorEnrolmentDocument = new TypedDocumentString(`
    mutation StartTwoFactorEnrolment {
  startTwoFactorEnrolment {
    secret
    qrCodeDataUrl
  }
}
    `) as unknown as TypedDocumentString<StartTwoFactorEnrolmentMutation, StartTwoFactorEnrolmentMutationVariables>;
export const ConfirmTwoFactorDocument = new TypedDocumentString(`
    mutation ConfirmTwoFactor($code: String!) {
  confirmTwoFactor(code: $code)
}
    `) as unknown as TypedDocumentString<ConfirmTwoFactorMutation, ConfirmTwoFactorMutationVariables>;
export const DisableTwoFactorDocument = new TypedDocumentString(`
    mutation DisableTwoFactor($code: String!) {
  disableTwoFactor(code: $code)
}
    `) as unknown as TypedDocumentString<DisableTwoFactorMutation, DisableTwoFactorMutationVariables>;
export const RegenerateRecoveryCodesDocument = new TypedDocumentString(`
    mutation RegenerateRecoveryCodes($code: String!) {
  regenerateRecoveryCodes(code: $code)
}
    `) as unknown as TypedDocumentString<RegenerateRecoveryCodesMutation, RegenerateRecoveryCodesMutationVariables>;
export const AdminViewerDocument = new TypedDocumentString(`
    query AdminViewer {
  viewer {
    id
    isInstanceAdmin
  }
}
    `) as unknown as TypedDocumentString<AdminViewerQuery, AdminViewerQueryVariables>;
export const ProjectSetupDocument = new TypedDocumentString(`
    query ProjectSetup($projectId: ID!) {
  project(id: $projectId) {
    id
    organizationId
  }
  viewer {
    id
    organizations {
      id
      plan
    }
  }
  plans {
    id
    name
    releaseHealth
  }
  issues(projectId: $projectId, first: 1) {
    totalCount
  }
}
    `) as unknown as TypedDocumentString<ProjectSetupQuery, ProjectSetupQueryVariables>;
export const AlertMutePageDocument = new TypedDocumentString(`
    query AlertMutePage($projectId: ID!, $issueId: ID!, $withIssue: Boolean!) {
  alertRules(projectId: $projectId) {
    id
    kind
    mutedUntil
    channel {
      type
    }
  }
  issue(id: $issueId) @include(if: $withIssue) {
    id
    projectId
    title
    alertsMutedUntil
  }
}
    `) as unknown as TypedDocumentString<AlertMutePageQuery, AlertMutePageQueryVariables>;
export const MuteAlertRuleFromLinkDocument = new TypedDocumentString(`
    mutation MuteAlertRuleFromLink($id: ID!, $until: String) {
  muteAlertRule(id: $id, until: $until) {
    id
  }
}
    `) as unknown as TypedDocumentString<MuteAlertRuleFromLinkMutation, MuteAlertRuleFromLinkMutationVariables>;
export const MuteIssueAlertsDocument = new TypedDocumentString(`
    mutation MuteIssueAlerts($issueId: ID!, $until: String) {
  muteIssueAlerts(issueId: $issueId, until: $until) {
    id
  }
}
    `) as unknown as TypedDocumentString<MuteIssueAlertsMutation, MuteIssueAlertsMutationVariables>;
export const BillingDocument = new TypedDocumentString(`
    query Billing($projectId: ID!) {
  project(id: $projectId) {
    organizationId
  }
}
    `) as unknown as TypedDocumentString<BillingQuery, BillingQueryVariables>;
export const BillingDetailsDocument = new TypedDocumentString(`
    query BillingDetails($organizationId: ID!) {
  organization(id: $organizationId) {
    id
    name
    slug
    usage {
      period
      periodEnd
      events {
        used
        limit
        remaining
      }
      logs {
        used
        limit
        remaining
      }
    }
  }
  billing(organizationId: $organizationId) {
    configured
    plan
    availablePlans
    status
    currentPeriodEnd
    cancelAtPeriodEnd
    pastDueSince
    graceEndsAt
    hasBillingAccount
  }
  plans {
    ...PlanFields
  }
}
    fragment PlanFields on PlanInfo {
  id
  name
  eventsPerMonth
  logsPerMonth
  retentionDays
  releaseHealth
}`) as unknown as TypedDocumentString<BillingDetailsQuery, BillingDetailsQueryVariables>;
export const CreateCheckoutSessionDocument = new TypedDocumentString(`
    mutation CreateCheckoutSession($organizationId: ID!, $plan: String!) {
  createCheckoutSession(organizationId: $organizationId, plan: $plan) {
    url
  }
}
    `) as unknown as TypedDocumentString<CreateCheckoutSessionMutation, CreateCheckoutSessionMutationVariables>;
export const CreateBillingPortalSessionDocument = new TypedDocumentString(`
    mutation CreateBillingPortalSession($organizationId: ID!) {
  createBillingPortalSession(organizationId: $organizationId) {
    url
  }
}
    `) as unknown as TypedDocumentString<CreateBillingPortalSessionMutation, CreateBillingPortalSessionMutationVariables>;
export const ProjectFeedbackDocument = new TypedDocumentString(`
    query ProjectFeedback($projectId: ID!, $first: Int!, $after: String) {
  feedback(projectId: $projectId, first: $first, after: $after) {
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      id
      message
      email
      name
      url
      eventId
      receivedAt
      issue {
        id
        title
      }
      event {
        eventId
        release
        environment
        url
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectFeedbackQuery, ProjectFeedbackQueryVariables>;
export const ProjectLogsDocument = new TypedDocumentString(`
    query ProjectLogs($projectId: ID!, $filter: LogFilter!, $first: Int!, $after: String) {
  logs(projectId: $projectId, filter: $filter, first: $first, after: $after) {
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      id
      level
      message
      context
      tags
      environment
      release
      timestamp
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectLogsQuery, ProjectLogsQueryVariables>;
export const ProjectMonitorsDocument = new TypedDocumentString(`
    query ProjectMonitors($projectId: ID!) {
  monitors(projectId: $projectId) {
    id
    slug
    name
    kind
    crontab
    timezone
    intervalMinutes
    url
    paused
    status
    checkinMarginMinutes
    maxRuntimeMinutes
    failureTolerance
    recoveryThreshold
    timeoutSeconds
    environments {
      environment
      status
      expectedAt
    }
    checkIns(first: 90) {
      id
      status
      durationMs
      statusCode
      error
      tlsExpiresAt
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectMonitorsQuery, ProjectMonitorsQueryVariables>;
export const CreateMonitorFromPageDocument = new TypedDocumentString(`
    mutation CreateMonitorFromPage($projectId: ID!, $kind: MonitorKind!, $input: MonitorInput!) {
  createMonitor(projectId: $projectId, kind: $kind, input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<CreateMonitorFromPageMutation, CreateMonitorFromPageMutationVariables>;
export const UpdateMonitorFromPageDocument = new TypedDocumentString(`
    mutation UpdateMonitorFromPage($id: ID!, $input: MonitorInput!) {
  updateMonitor(id: $id, input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<UpdateMonitorFromPageMutation, UpdateMonitorFromPageMutationVariables>;
export const PauseMonitorFromPageDocument = new TypedDocumentString(`
    mutation PauseMonitorFromPage($id: ID!, $paused: Boolean!) {
  pauseMonitor(id: $id, paused: $paused) {
    id
  }
}
    `) as unknown as TypedDocumentString<PauseMonitorFromPageMutation, PauseMonitorFromPageMutationVariables>;
export const DeleteMonitorFromPageDocument = new TypedDocumentString(`
    mutation DeleteMonitorFromPage($id: ID!) {
  deleteMonitor(id: $id)
}
    `) as unknown as TypedDocumentString<DeleteMonitorFromPageMutation, DeleteMonitorFromPageMutationVariables>;
export const ProjectVitalsDocument = new TypedDocumentString(`
    query ProjectVitals($projectId: ID!, $filter: VitalsFilter!, $interval: VitalsInterval!, $first: Int!) {
  vitals(projectId: $projectId, filter: $filter) {
    from
    to
    pageViews
    metrics {
      metric
      count
      p75
      goodShare
      needsImprovementShare
      poorShare
      thresholds {
        good
        poor
      }
    }
  }
  vitalsByUrl(projectId: $projectId, filter: $filter, first: $first) {
    url
    pageViews
    metrics {
      metric
      p75
    }
  }
  vitalsTimeSeries(projectId: $projectId, filter: $filter, interval: $interval) {
    interval
    buckets {
      start
      pageViews
      lcp
      inp
      cls
      fcp
      ttfb
    }
  }
  releases(projectId: $projectId, first: 100) {
    version
    environment
  }
}
    `) as unknown as TypedDocumentString<ProjectVitalsQuery, ProjectVitalsQueryVariables>;
export const ProjectReleasesDocument = new TypedDocumentString(`
    query ProjectReleases($projectId: ID!, $first: Int!) {
  project(id: $projectId) {
    id
    organizationId
  }
  viewer {
    id
    organizations {
      id
      slug
      name
      plan
    }
  }
  plans {
    ...PlanFields
  }
  releases(projectId: $projectId, first: $first) {
    id
    version
    environment
    deployedAt
    ...ReleaseVersionFields
  }
}
    fragment ReleaseVersionFields on Release {
  dateReleased
  commits {
    id
    repository
    authorName
    authorEmail
    message
    timestamp
  }
}
fragment PlanFields on PlanInfo {
  id
  name
  eventsPerMonth
  logsPerMonth
  retentionDays
  releaseHealth
}`) as unknown as TypedDocumentString<ProjectReleasesQuery, ProjectReleasesQueryVariables>;
export const ProjectReleaseHealthDocument = new TypedDocumentString(`
    query ProjectReleaseHealth($projectId: ID!, $first: Int!) {
  releases(projectId: $projectId, first: $first) {
    id
    version
    environment
    deployedAt
    ...ReleaseVersionFields
    health {
      ...ReleaseHealthFields
    }
  }
}
    fragment ReleaseHealthFields on ReleaseHealth {
  issuesIntroduced
  regressions
  basis
  crashFreeSessions
  sessions {
    started
  }
  usersSeen
  crashedUsers
  crashFreeUsers
  windowEvents
  enoughData
  eventsPerHour
  previousVersion
  previousIssuesIntroduced
  previousRegressions
  previousCrashFreeUsers
  previousEventsPerHour
  eventsPerHourRatio
}
fragment ReleaseVersionFields on Release {
  dateReleased
  commits {
    id
    repository
    authorName
    authorEmail
    message
    timestamp
  }
}`) as unknown as TypedDocumentString<ProjectReleaseHealthQuery, ProjectReleaseHealthQueryVariables>;
export const MarkReleaseDocument = new TypedDocumentString(`
    mutation MarkRelease($projectId: ID!, $version: String!, $environment: String) {
  markRelease(projectId: $projectId, version: $version, environment: $environment) {
    id
    version
    environment
    deployedAt
  }
}
    `) as unknown as TypedDocumentString<MarkReleaseMutation, MarkReleaseMutationVariables>;
export const ProjectDocument = new TypedDocumentString(`
    query Project($id: ID!) {
  project(id: $id) {
    id
    name
    dsn
    organizationId
  }
}
    `) as unknown as TypedDocumentString<ProjectQuery, ProjectQueryVariables>;
export const CreateProjectDocument = new TypedDocumentString(`
    mutation CreateProject($organizationId: ID!, $name: String!) {
  createProject(organizationId: $organizationId, name: $name) {
    id
  }
}
    `) as unknown as TypedDocumentString<CreateProjectMutation, CreateProjectMutationVariables>;
export const ViewerDocument = new TypedDocumentString(`
    query Viewer {
  viewer {
    id
    email
    isInstanceAdmin
    twoFactorEnrolmentRequired
    organizations {
      id
      slug
      name
      plan
      projects {
        id
        name
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ViewerQuery, ViewerQueryVariables>;
export const FirstProjectDocument = new TypedDocumentString(`
    query FirstProject {
  viewer {
    id
    organizations {
      id
      projects {
        id
      }
    }
  }
}
    `) as unknown as TypedDocumentString<FirstProjectQuery, FirstProjectQueryVariables>;
export const RequestPasswordResetDocument = new TypedDocumentString(`
    mutation RequestPasswordReset($email: String!) {
  requestPasswordReset(email: $email) {
    emailConfigured
  }
}
    `) as unknown as TypedDocumentString<RequestPasswordResetMutation, RequestPasswordResetMutationVariables>;
export const InvitationPreviewDocument = new TypedDocumentString(`
    query InvitationPreview($token: String!) {
  invitation(token: $token) {
    organizationName
    email
    role
    status
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<InvitationPreviewQuery, InvitationPreviewQueryVariables>;
export const AcceptInvitationDocument = new TypedDocumentString(`
    mutation AcceptInvitation($token: String!) {
  acceptInvitation(token: $token) {
    id
    projects {
      id
    }
  }
}
    `) as unknown as TypedDocumentString<AcceptInvitationMutation, AcceptInvitationMutationVariables>;
export const SignupWithInvitationDocument = new TypedDocumentString(`
    mutation SignupWithInvitation($token: String!, $password: String!) {
  signupWithInvitation(token: $token, password: $password) {
    token
  }
}
    `) as unknown as TypedDocumentString<SignupWithInvitationMutation, SignupWithInvitationMutationVariables>;
export const SignInDocument = new TypedDocumentString(`
    mutation SignIn($email: String!, $password: String!) {
  signIn(email: $email, password: $password) {
    session {
      token
    }
    twoFactorChallenge
    twoFactorEnrolmentRequired
  }
}
    `) as unknown as TypedDocumentString<SignInMutation, SignInMutationVariables>;
export const SignInWithTwoFactorDocument = new TypedDocumentString(`
    mutation SignInWithTwoFactor($challenge: String!, $code: String!) {
  signInWithTwoFactor(challenge: $challenge, code: $code) {
    token
    user {
      twoFactorEnabled
    }
  }
}
    `) as unknown as TypedDocumentString<SignInWithTwoFactorMutation, SignInWithTwoFactorMutationVariables>;
export const StartSsoLoginDocument = new TypedDocumentString(`
    mutation StartSsoLogin($email: String!) {
  startSsoLogin(email: $email) {
    authorizationUrl
    state
  }
}
    `) as unknown as TypedDocumentString<StartSsoLoginMutation, StartSsoLoginMutationVariables>;
export const LogoutDocument = new TypedDocumentString(`
    mutation Logout {
  logout
}
    `) as unknown as TypedDocumentString<LogoutMutation, LogoutMutationVariables>;
export const OrgProjectsDocument = new TypedDocumentString(`
    query OrgProjects {
  viewer {
    id
    organizations {
      slug
      projects {
        id
      }
    }
  }
}
    `) as unknown as TypedDocumentString<OrgProjectsQuery, OrgProjectsQueryVariables>;
export const PasswordResetDocument = new TypedDocumentString(`
    query PasswordReset($token: String!) {
  passwordReset(token: $token) {
    email
  }
}
    `) as unknown as TypedDocumentString<PasswordResetQuery, PasswordResetQueryVariables>;
export const ResetPasswordDocument = new TypedDocumentString(`
    mutation ResetPassword($token: String!, $newPassword: String!) {
  resetPassword(token: $token, newPassword: $newPassword)
}
    `) as unknown as TypedDocumentString<ResetPasswordMutation, ResetPasswordMutationVariables>;
export const SignupDocument = new TypedDocumentString(`
    mutation Signup($email: String!, $password: String!, $organizationName: String!) {
  signup(email: $email, password: $password, organizationName: $organizationName) {
    token
    checkEmail
  }
}
    `) as unknown as TypedDocumentString<SignupMutation, SignupMutationVariables>;
export const CompleteSsoLoginDocument = new TypedDocumentString(`
    mutation CompleteSsoLogin($parameters: String!) {
  completeSsoLogin(parameters: $parameters) {
    token
  }
}
    `) as unknown as TypedDocumentString<CompleteSsoLoginMutation, CompleteSsoLoginMutationVariables>;
export const ConfirmEmailAddressDocument = new TypedDocumentString(`
    mutation ConfirmEmailAddress($token: String!) {
  confirmEmailAddress(token: $token) {
    email
    organizationSlug
  }
}
    `) as unknown as TypedDocumentString<ConfirmEmailAddressMutation, ConfirmEmailAddressMutationVariables>;