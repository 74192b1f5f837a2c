export type DeliveryErrorCode =
  /** The target answered with a non-2xx status (see `status`). */
  | 'HTTP_STATUS'
  /** No complete answer within `timeoutMs`. */
  | 'TIMEOUT'
  /** DNS failure, connection refused or reset, TLS failure… */
  | 'CONNECTION'
  /** The target is (or resolved to) a private, loopback, link-local… address. */
  | 'PRIVATE_TARGET'
  /** The channel itself is unusable: bad URL, scheme, credentials in the URL, bad email, no secret. */
  | 'INVALID_CHANNEL'
  /** EMAIL channel but no SMTP settings. */
  | 'NOT_CONFIGURED'
  /** The SMTP server refused (see `status`, the SMTP reply code) or the SMTP session failed. */
  | 'SMTP';

/**
 * Why one delivery attempt failed. `retryable` tells the caller whether another attempt (after
 * `backoffDelayMs`) can succeed; `status` is the HTTP status or SMTP reply code when there was
 * one; `retryAfterMs` is the target's own `Retry-After`, when it sent one.
 */
export class DeliveryError extends Error {
  readonly code: DeliveryErrorCode;
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** The start of the receiver's answer (HTTP body, SMTP reply), when it sent one. */
  readonly response?: string;
  /** The receiver was on a non-public address: its answer is not kept (`createAlertSender`). */
  readonly privateTarget?: boolean;

  constructor(init: {
    code: DeliveryErrorCode;
    retryable: boolean;
    message: string;
    status?: number;
    retryAfterMs?: number;
    response?: string;
    privateTarget?: boolean;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'DeliveryError';
    this.code = init.code;
    this.retryable = init.retryable;
    if (init.status !== undefined) this.status = init.status;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.response !== undefined) this.response = init.response;
    if (init.privateTarget !== undefined) this.privateTarget = init.privateTarget;
  }
}

export function isDeliveryError(error: unknown): error is DeliveryError {
  return error instanceof DeliveryError;
}
