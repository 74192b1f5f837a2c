import type { AlertAttemptOutcome, AlertSender, AlertSendRequest, Clock } from '@tracker/core';
import { deliverAlert } from './deliver';
import { isDeliveryError } from './errors';
import type { AlertChannel, AlertPayload, DeliveryOptions } from './types';

export interface AlertSenderOptions extends Omit<DeliveryOptions, 'now'> {
  clock?: Clock;
  log?: (level: 'error', msg: string, data?: Record<string, unknown>) => void;
}

/** The channel a rule's columns describe. */
export function channelOf(r: AlertSendRequest): AlertChannel {
  switch (r.channelType) {
    case 'EMAIL':
      return { type: 'EMAIL', email: r.email ?? '' };
    case 'SLACK':
    case 'TEAMS':
    case 'DISCORD':
      return { type: r.channelType, url: r.url ?? '' };
    default:
      return { type: 'WEBHOOK', url: r.url ?? '', secret: r.secret ?? '' };
  }
}

/** The stored payload with what every attempt adds: the kind, rule, delivery id and when it fired. */
export function payloadOf(r: AlertSendRequest): AlertPayload {
  return {
    ...(r.payload as Omit<AlertPayload, 'kind' | 'ruleId' | 'deliveryId' | 'triggeredAt'>),
    kind: r.kind,
    ruleId: r.ruleId,
    deliveryId: r.id,
    triggeredAt: r.createdAt.toISOString(),
  };
}

/**
 * One attempt through the channel code, as core's `AlertSender`: the dispatcher sends every
 * delivery with it, and the server hands the same function to the api for `testAlertRule`.
 * It never throws: a failure is an outcome with the receiver's status and answer and a message
 * in users' words; an unexpected error is logged here and shown as an internal failure.
 * The answer of a receiver on a private address is dropped here, before anything stores it: it
 * is a service inside the network speaking, reached because TRACKER_ALLOW_PRIVATE_TARGETS is on
 * (issue 28). Its status is kept.
 */
export function createAlertSender(options: AlertSenderOptions): AlertSender {
  const { clock, log, ...delivery } = options;
  return async (request): Promise<AlertAttemptOutcome> => {
    try {
      const r = await deliverAlert(channelOf(request), payloadOf(request), { ...delivery, now: clock });
      return {
        ok: true,
        status: r.status ?? null,
        response: r.privateTarget ? null : (r.response ?? null),
        error: null,
        retryable: false,
        retryAfterMs: null,
      };
    } catch (err) {
      if (isDeliveryError(err)) {
        return {
          ok: false,
          status: err.status ?? null,
          response: err.privateTarget ? null : (err.response ?? null),
          error: err.message,
          retryable: err.retryable,
          retryAfterMs: err.retryAfterMs ?? null,
        };
      }
      log?.('error', 'alert delivery failed unexpectedly', { id: request.id, err });
      return {
        ok: false,
        status: null,
        response: null,
        error: 'Tracker could not send this alert because of an internal error. It will try again.',
        retryable: true,
        retryAfterMs: null,
      };
    }
  };
}
