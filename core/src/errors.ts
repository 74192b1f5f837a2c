/**
 * The one error type of the domain. Each edge maps `code` exactly once: GraphQL to
 * `extensions.code`, HTTP ingest to a status (see `httpStatusFor`).
 */
export type AppErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'PLAN_REQUIRED'
  | 'RATE_LIMITED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'BILLING_NOT_CONFIGURED'
  | 'UNAVAILABLE';

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** Seconds, for RATE_LIMITED and UNAVAILABLE (sent as `Retry-After`). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

const STATUS: Record<AppErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  CONFLICT: 409,
  PLAN_REQUIRED: 402,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  // Stripe is not set up on this installation (docs/billing.md); retrying helps once it is.
  BILLING_NOT_CONFIGURED: 503,
  // Ingest cannot take more now (the queue's backlog is over its bound); retry after Retry-After.
  UNAVAILABLE: 503,
};

export function httpStatusFor(code: AppErrorCode): number {
  return STATUS[code];
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * The message of anything a `catch` or a rejection hands over: `throw` takes any value, so a
 * cast to `Error` can itself throw (`undefined.message`) inside the handler meant to log it.
 */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return String(err);
  } catch {
    return 'unknown error'; // an object whose toString throws, or without a prototype
  }
}
