import { createHmac, timingSafeEqual } from 'node:crypto';
import { DeliveryError } from './errors';
import { targetUrlOrThrow } from './guard';
import { postJson, type PostOptions, type PostResult } from './http-post';
import type { AlertPayload, WebhookChannel } from './types';

export const SIGNATURE_HEADER = 'X-Tracker-Signature';
export const TIMESTAMP_HEADER = 'X-Tracker-Timestamp';
export const DELIVERY_HEADER = 'X-Tracker-Delivery';
export const EVENT_HEADER = 'X-Tracker-Event';
/** `1` on a test notification (`testAlertRule`): no issue triggered it. */
export const TEST_HEADER = 'X-Tracker-Test';
/** How old a signed timestamp a receiver should accept, by default (5 minutes, like Stripe). */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * `sha256=` + hex HMAC-SHA256, keyed with the rule's secret, of `"<timestamp>.<raw body>"`,
 * where timestamp is the `X-Tracker-Timestamp` header (Unix seconds) and body the exact bytes sent.
 */
export function signWebhook(secret: string, timestamp: number | string, rawBody: string | Buffer): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(rawBody);
  return `sha256=${mac.digest('hex')}`;
}

/**
 * What a receiver does (docs/alerts.md): recompute the signature over the raw body, compare in
 * constant time, and refuse timestamps further than `toleranceSeconds` from now (replays).
 */
export function verifyWebhookSignature(input: {
  secret: string;
  rawBody: string | Buffer;
  timestamp: string | undefined;
  signature: string | undefined;
  toleranceSeconds?: number;
  /** Unix milliseconds. */
  now?: number;
}): boolean {
  const { secret, rawBody, timestamp, signature } = input;
  if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  const tolerance = input.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, rawBody));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function webhookHeaders(
  secret: string,
  payload: AlertPayload,
  body: string,
  nowMs: number,
): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    ...(payload.test === true ? { [TEST_HEADER]: '1' } : {}),
    [EVENT_HEADER]: payload.kind,
    [DELIVERY_HEADER]: payload.deliveryId,
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signWebhook(secret, timestamp, body),
  };
}

export async function deliverWebhook(
  channel: WebhookChannel,
  payload: AlertPayload,
  options: PostOptions,
): Promise<PostResult> {
  const url = targetUrlOrThrow(channel.url, options.allowPrivateTargets);
  if (typeof channel.secret !== 'string' || channel.secret === '') {
    throw new DeliveryError({
      code: 'INVALID_CHANNEL',
      retryable: false,
      message: 'This webhook rule has no signing secret; delete it and create it again.',
    });
  }
  const body = JSON.stringify(payload);
  return postJson(url, body, webhookHeaders(channel.secret, payload, body, options.now()), options, 'webhook');
}
