export { deliverAlert, DEFAULT_DELIVERY_TIMEOUT_MS, DEFAULT_USER_AGENT } from './deliver';
export { DeliveryError, isDeliveryError } from './errors';
export type { DeliveryErrorCode } from './errors';
export { assertPublicUrl, classifyAddress, createGuardedLookup } from './guard';
export type { AddressClass } from './guard';
export { backoffDelayMs, BACKOFF_BASE_MS, BACKOFF_CAP_MS, MAX_DELIVERY_ATTEMPTS } from './backoff';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  signWebhook,
  TIMESTAMP_HEADER,
  verifyWebhookSignature,
} from './webhook';
export { buildSlackMessage } from './slack';
export { isValidAlertEmail, renderAlertEmail } from './email';
export type {
  AlertChannel,
  AlertIssueStatus,
  AlertPayload,
  DeliveryOptions,
  DeliveryResult,
  EmailChannel,
  HostResolver,
  SlackChannel,
  SmtpSettings,
  WebhookChannel,
} from './types';
