import { systemClock } from '@tracker/core';
import { deliverDiscord } from './discord';
import { DeliveryError } from './errors';
import { deliverEmail } from './email';
import type { PostResult } from './http-post';
import { deliverSlack } from './slack';
import { deliverTeams } from './teams';
import type { AlertChannel, AlertPayload, DeliveryOptions, DeliveryResult } from './types';
import { deliverWebhook } from './webhook';

export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
export const DEFAULT_USER_AGENT = 'Tracker-Alerts/1.0';

/**
 * Makes ONE attempt to deliver `payload` to `channel`. Resolves on success (2xx, or the SMTP
 * server accepted the message) with the receiver's status and the start of its answer;
 * otherwise throws a `DeliveryError` whose `retryable`, `status`, `response` and message (in
 * users' words) the caller records before scheduling the next attempt. It never retries by
 * itself and never follows redirects.
 */
export async function deliverAlert(
  channel: AlertChannel,
  payload: AlertPayload,
  options: DeliveryOptions,
): Promise<DeliveryResult> {
  const now = options.now ?? systemClock;
  // The duration is a measurement of this attempt, not a rule: it stays on the wall clock.
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const post = {
    allowPrivateTargets: options.allowPrivateTargets,
    timeoutMs,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    resolveHost: options.resolveHost,
    now,
  };
  const answered = (type: AlertChannel['type'], r: PostResult): DeliveryResult => ({
    channel: type,
    status: r.status,
    response: r.response,
    privateTarget: r.privateTarget,
    durationMs: Date.now() - started,
  });
  switch (channel.type) {
    case 'WEBHOOK':
      return answered('WEBHOOK', await deliverWebhook(channel, payload, post));
    case 'SLACK':
      return answered('SLACK', await deliverSlack(channel, payload, post));
    case 'TEAMS':
      return answered('TEAMS', await deliverTeams(channel, payload, post));
    case 'DISCORD':
      return answered('DISCORD', await deliverDiscord(channel, payload, post));
    case 'EMAIL': {
      const { status, messageId, response } = await deliverEmail(channel, payload, { smtp: options.smtp, timeoutMs });
      return { channel: 'EMAIL', status, messageId, response, durationMs: Date.now() - started };
    }
    default:
      throw new DeliveryError({
        code: 'INVALID_CHANNEL',
        retryable: false,
        message: `Unknown channel type ${JSON.stringify((channel as { type?: unknown }).type)}.`,
      });
  }
}
