export { deliverAlert, DEFAULT_DELIVERY_TIMEOUT_MS, DEFAULT_USER_AGENT } from './deliver';
export { DeliveryError, isDeliveryError } from './errors';
export type { DeliveryErrorCode } from './errors';
export { assertPublicUrl, classifyAddress, createGuardedLookup } from './guard';
export type { AddressClass } from './guard';
export {
  backoffDelayMs,
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  MAX_DELIVERY_ATTEMPTS,
  nextRetryAt,
  RETRY_WINDOW_MS,
} from './backoff';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  signWebhook,
  TEST_HEADER,
  TIMESTAMP_HEADER,
  verifyWebhookSignature,
} from './webhook';
export { buildSlackMessage } from './slack';
export { buildTeamsMessage } from './teams';
export { buildDiscordMessage } from './discord';
export { isValidAlertEmail, renderAlertEmail } from './email';
export { isPrivatePeer, MAX_RESPONSE_BYTES, MAX_RESPONSE_CHARS, redirectHint } from './http-post';
export { channelOf, createAlertSender, payloadOf, type AlertSenderOptions } from './sender';
export type {
  AlertChannel,
  AlertIssue,
  AlertIssueStatus,
  AlertPayload,
  DeliveryOptions,
  DeliveryResult,
  DiscordChannel,
  EmailChannel,
  HostResolver,
  SlackChannel,
  SmtpSettings,
  TeamsChannel,
  WebhookChannel,
} from './types';
