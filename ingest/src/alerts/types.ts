import type { LookupAddress } from 'node:dns';
import type { AlertKind, Clock } from '@tracker/core';

/** Issue status as the GraphQL API spells it (docs/api.md). */
export type AlertIssueStatus = 'OPEN' | 'RESOLVED' | 'SNOOZED';

/**
 * What one alert says. It is the webhook body as is (`JSON.stringify(payload)`), and Slack and
 * email render it. Times are ISO 8601 strings. Receivers must ignore fields they do not know:
 * fields may be added, never renamed or removed. See docs/alerts.md.
 */
export interface AlertPayload {
  kind: AlertKind;
  /** The alert rule that fired. */
  ruleId: string;
  /** One id per alert and channel, the same on every retry: receivers deduplicate on it. */
  deliveryId: string;
  /** When the rule fired (not when this attempt was made). */
  triggeredAt: string;
  /** Sent with "Send test notification" (`testAlertRule`): no issue triggered it. */
  test?: boolean;
  project: { id: string; name: string };
  /** The issue the alert is about; absent for project-wide kinds (an error spike, a log match). */
  issue?: AlertIssue;
  /** The event that made the rule fire, when there is one. */
  event?: {
    eventId: string;
    release: string | null;
    environment: string;
    message: string;
  };
  // What the rule kinds and noise control add (docs/alerts.md, "What each trigger adds"); every
  // renderer shows them when present.
  /** ISSUE_FREQUENCY, USERS_AFFECTED, ERROR_SPIKE: what was counted in the window. */
  window?: { minutes: number; threshold: number; count: number; unit: 'events' | 'users'; ratePerMinute?: number };
  /** Older or other producers may send the window's N and M flat. */
  threshold?: number | null;
  windowMinutes?: number | null;
  /** NEW_RELEASE_ISSUE: the release the issue was first seen in. */
  newRelease?: { version: string; environment: string };
  /** LOG_MATCH: the log line, and the rule's query. */
  log?: { id: string; level: string; message: string; environment: string; release: string | null; timestamp: string };
  query?: string;
  /** Events matching the rule since its previous alert for this issue (null: none before). */
  eventsSinceLastAlert?: number | null;
  lastAlertAt?: string | null;
  /** Dashboard pages that mute the rule, or its alerts for this issue, after the user confirms. */
  links?: { muteRule: string; muteIssue?: string };
  /** Digest rules: every firing of the period (at most 50; `count` has them all). */
  digest?: {
    minutes: number;
    count: number;
    openedAt: string;
    lastAt: string;
    closesAt: string;
    items: Array<Omit<AlertPayload, 'ruleId' | 'deliveryId' | 'digest'>>;
  };
}

export interface AlertIssue {
  id: string;
  title: string;
  type: string;
  culprit: string | null;
  status: AlertIssueStatus;
  eventCount: number;
  userCount: number;
  firstSeen: string;
  lastSeen: string;
  /** Link to the issue in the dashboard. */
  url: string;
}

export type WebhookChannel = { type: 'WEBHOOK'; url: string; secret: string };
export type SlackChannel = { type: 'SLACK'; url: string };
export type EmailChannel = { type: 'EMAIL'; email: string };
/** A Microsoft Teams incoming webhook (Workflows or the older connector): a message card with an Adaptive Card. */
export type TeamsChannel = { type: 'TEAMS'; url: string };
/** A Discord channel webhook: content plus one embed. */
export type DiscordChannel = { type: 'DISCORD'; url: string };
export type AlertChannel = WebhookChannel | SlackChannel | EmailChannel | TeamsChannel | DiscordChannel;

/** The SMTP relay alert emails go through (operator configuration, never user input). */
export interface SmtpSettings {
  host: string;
  port: number;
  /** `true`: TLS from the first byte (port 465). `false`: plain, upgraded by STARTTLS when offered. */
  secure: boolean;
  auth?: { user: string; pass: string };
  /** The From header, e.g. `"Tracker" <alerts@example.com>`. */
  from: string;
  /** Fail instead of sending in clear text when the server does not offer STARTTLS. */
  requireTLS?: boolean;
  /** Extra TLS options, e.g. `{ rejectUnauthorized: false }` for a relay with a private CA. */
  tls?: { rejectUnauthorized?: boolean; servername?: string };
}

/**
 * Resolves a host name to every address it has (like `dns.lookup(host, { all: true })`).
 * The guard checks all of them at connect time. Injectable so tests need no external DNS.
 */
export type HostResolver = (hostname: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>;

export interface DeliveryOptions {
  /** `TRACKER_ALLOW_PRIVATE_TARGETS=1`: let webhook, Slack, Teams and Discord targets be private, loopback, link-local… */
  allowPrivateTargets: boolean;
  /** Whole attempt, DNS to last response byte (SMTP: each connect, greeting and socket wait too). Default 10 s. */
  timeoutMs?: number;
  /** `User-Agent` of HTTP requests. Default `Tracker-Alerts/1.0`. */
  userAgent?: string;
  /** Required for EMAIL channels. */
  smtp?: SmtpSettings;
  /** Default: the system resolver (`dns.lookup`, all addresses). */
  resolveHost?: HostResolver;
  /** Clock for the webhook timestamp and an HTTP-date `Retry-After`. Default the wall clock. */
  now?: Clock;
}

export interface DeliveryResult {
  channel: AlertChannel['type'];
  /** HTTP status (webhook, Slack, Teams, Discord) or SMTP reply code (email). */
  status?: number;
  /** The start of the receiver's answer: its body (HTTP) or its final reply (SMTP), bounded and cleaned. */
  response?: string;
  /** The HTTP receiver was on a non-public address (TRACKER_ALLOW_PRIVATE_TARGETS): its answer is not kept. */
  privateTarget?: boolean;
  /** Message-ID of the email. */
  messageId?: string;
  durationMs: number;
}
