import type { AlertChannelType, AlertKind } from '../entities';

/** One delivery as the channel code needs it: where to, and what (the stored payload). */
export interface AlertSendRequest {
  id: string;
  ruleId: string;
  kind: AlertKind;
  payload: Record<string, unknown>;
  /** When the rule fired (`triggeredAt`). */
  createdAt: Date;
  channelType: AlertChannelType;
  url: string | null;
  email: string | null;
  secret: string | null;
}

/**
 * What one attempt came to. `error` is in users' words (it is shown on the Alerts page as is);
 * `response` is the start of the receiver's answer, bounded and cleaned by the channel code.
 */
export interface AlertAttemptOutcome {
  ok: boolean;
  /** HTTP status, or the SMTP reply code; null when nothing answered. */
  status: number | null;
  response: string | null;
  error: string | null;
  /** Another attempt may succeed (5xx, 408, 429, timeouts, connection failures). */
  retryable: boolean;
  /** The receiver's own `Retry-After`, when it sent one. */
  retryAfterMs: number | null;
}

/**
 * Makes one attempt through the channel code (ingest's `createAlertSender`). The dispatcher
 * uses it for every delivery; the server hands the same function to the api for test sends,
 * so a test goes through exactly the code a real alert does.
 */
export type AlertSender = (request: AlertSendRequest) => Promise<AlertAttemptOutcome>;
