import type { AlertChannelType } from '../entities';
import { AppError } from '../errors';

/** What this instance can deliver to: read from its configuration. */
export interface AlertInstance {
  /** `TRACKER_SMTP_URL` is set. */
  smtpConfigured: boolean;
  /** `TRACKER_ALLOW_PRIVATE_TARGETS=1`. */
  allowPrivateTargets: boolean;
}

/** One channel type as the Alerts page presents it (`alertChannels`). */
export interface AlertChannelInfo {
  type: AlertChannelType;
  name: string;
  /** What the rule's target is: a URL or an email address. */
  target: 'URL' | 'EMAIL';
  available: boolean;
  /** Why not, in users' words, when it is not available. */
  unavailableReason: string | null;
  /** What to paste and where it may point, true to this instance. */
  help: string;
}

export const EMAIL_UNAVAILABLE =
  'Email alerts are not available on this Tracker instance: it has no mail server configured. ' +
  'Choose a webhook, Slack, Microsoft Teams or Discord channel, or ask whoever runs this Tracker to set up outgoing email (TRACKER_SMTP_URL).';

function targets(allowPrivate: boolean): string {
  return allowPrivate
    ? 'Any http(s) address is accepted, including private and local network addresses (this instance allows them).'
    : 'It must be a public http(s) address: this instance refuses private, local and loopback addresses.';
}

/**
 * The channels, in the order the Alerts page offers them, each with whether this instance can
 * deliver to it and a help text that says what this instance accepts.
 */
export function describeAlertChannels(instance: AlertInstance): AlertChannelInfo[] {
  const where = targets(instance.allowPrivateTargets);
  const url = (type: AlertChannelType, name: string, help: string): AlertChannelInfo => ({
    type,
    name,
    target: 'URL',
    available: true,
    unavailableReason: null,
    help: `${help} ${where}`,
  });
  return [
    url(
      'WEBHOOK',
      'Webhook',
      'Tracker POSTs the alert as JSON, signed with the rule’s secret (X-Tracker-Signature, HMAC-SHA256).',
    ),
    url('SLACK', 'Slack', 'Paste a Slack incoming-webhook URL (Slack app → Incoming Webhooks).'),
    url(
      'TEAMS',
      'Microsoft Teams',
      'Paste a Teams incoming-webhook URL (a channel’s Workflows “Post to a channel when a webhook request is received”, or an Incoming Webhook connector).',
    ),
    url('DISCORD', 'Discord', 'Paste a Discord webhook URL (channel settings → Integrations → Webhooks).'),
    {
      type: 'EMAIL',
      name: 'Email',
      target: 'EMAIL',
      available: instance.smtpConfigured,
      unavailableReason: instance.smtpConfigured ? null : EMAIL_UNAVAILABLE,
      help: instance.smtpConfigured
        ? 'One email address; the alert is sent as HTML with a plain-text part.'
        : EMAIL_UNAVAILABLE,
    },
  ];
}

/**
 * Refuses a channel this instance cannot deliver to (today: email without a mail server), with
 * the message the Alerts page shows. Refused rather than saved disabled: a rule that can never
 * fire would look like protection that is not there (decision 027).
 */
export function assertChannelDeliverable(type: AlertChannelType, instance: AlertInstance): void {
  const info = describeAlertChannels(instance).find((c) => c.type === type);
  if (info && !info.available) throw new AppError('BAD_USER_INPUT', info.unavailableReason ?? 'Not available');
}
