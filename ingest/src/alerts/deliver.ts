import { systemClock } from '@tracker/core';
import { DeliveryError } from './errors';
import { deliverEmail } from './email';
import { deliverSlack } from './slack';
import type { AlertChannel, AlertPayload, DeliveryOptions, DeliveryResult } from './types';
import { deliverWebhook } from './webhook';

export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
export const DEFAULT_USER_AGENT = 'Tracker-Alerts/1.0';

/**
 * Makes ONE attempt to deliver `payload` to `channel`. Resolves on success (2xx, or the SMTP
 * server accepted the message); otherwise throws a `DeliveryError` whose `retryable`, `status`
 * and message the caller records before scheduling the next attempt with `backoffDelayMs`.
 * It never retries by itself and never follows redirects.
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
  switch (channel.type) {
    case 'WEBHOOK': {
      const status = await deliverWebhook(channel, payload, post);
      return { channel: 'WEBHOOK', status, durationMs: Date.now() - started };
    }
    case 'SLACK': {
      const status = await deliverSlack(channel, payload, post);
      return { channel: 'SLACK', status, durationMs: Date.now() - started };
    }
    case 'EMAIL': {
      const { status, messageId } = await deliverEmail(channel, payload, { smtp: options.smtp, timeoutMs });
      return { channel: 'EMAIL', status, messageId, durationMs: Date.now() - started };
    }
    default:
      throw new DeliveryError({
        code: 'INVALID_CHANNEL',
        retryable: false,
        message: `unknown channel type ${JSON.stringify((channel as { type?: unknown }).type)}`,
      });
  }
}
