import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { AlertChannelType, AlertKind } from '../entities';
import { recordIssueActivity } from '../activity/record-activity';

/**
 * Something that happened to an issue in a worker batch and may fire rules: NEW_ISSUE,
 * REGRESSED_ISSUE and NEW_RELEASE_ISSUE come from the lifecycle step (`evaluateAlerts` counts the rest).
 */
export interface AlertTrigger {
  kind: AlertKind;
  projectId: string;
  issueId: string;
  /** The event that caused it. */
  event: { eventId: string; release: string | null; environment: string; message: string };
}

/** What the dispatcher needs to send one delivery. */
export interface ClaimedDelivery {
  id: string;
  ruleId: string;
  kind: AlertKind;
  attempts: number;
  payload: Record<string, unknown>;
  createdAt: Date;
  channelType: AlertChannelType;
  url: string | null;
  email: string | null;
  secret: string | null;
  /** When the first attempt started (this one, on the first): retries stop an hour after it. */
  firstAttemptAt: Date;
}

/**
 * Due means: `next_attempt_at` has passed by the dispatcher's clock (so a test that holds time
 * decides when a retry is due), or by the database's, whichever is later, so a process whose
 * clock lags the database's, or a test holding time in the past, never strands a delivery
 * another process wrote with the database's `now()` (decision 027).
 */
const DUE = `greatest($now::timestamptz, now())`;

function at(now: number): string {
  return new Date(now).toISOString();
}

/**
 * Claims a due delivery for one attempt: `pending` → `sending` with a lease, attempts + 1.
 * Null when it is not due, already taken, delivered, or its rule is gone or disabled —
 * a duplicate queue message is therefore harmless. `now` is the dispatcher's clock.
 */
export async function claimAlertDelivery(
  ds: DataSource,
  id: string,
  leaseMs: number,
  now: number,
): Promise<ClaimedDelivery | null> {
  const rows = await queryRows<{
    id: string;
    rule_id: string;
    kind: AlertKind;
    attempts: number;
    payload: Record<string, unknown>;
    created_at: Date;
    channel_type: AlertChannelType;
    url: string | null;
    email: string | null;
    secret: string | null;
    first_attempt_at: Date;
  }>(
    ds,
    `UPDATE alert_deliveries d SET status = 'sending', attempts = d.attempts + 1,
       next_attempt_at = $3::timestamptz + make_interval(secs => $2::double precision / 1000),
       first_attempt_at = coalesce(d.first_attempt_at, $3::timestamptz), last_attempt_at = $3::timestamptz
     FROM alert_rules r
     WHERE d.id = $1 AND r.id = d.rule_id AND r.enabled AND d.status = 'pending' AND NOT d.is_test
       AND d.next_attempt_at <= ${DUE.replace('$now', '$3')}
     RETURNING d.id, d.rule_id, d.kind, d.attempts, d.payload, d.created_at, r.channel_type, r.url, r.email, r.secret,
       d.first_attempt_at`,
    [id, leaseMs, at(now)],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    ruleId: r.rule_id,
    kind: r.kind,
    attempts: r.attempts,
    payload: r.payload,
    createdAt: new Date(r.created_at),
    channelType: r.channel_type,
    url: r.url,
    email: r.email,
    secret: r.secret,
    firstAttemptAt: new Date(r.first_attempt_at),
  };
}

const CHANNEL_WORDS: Record<string, string> = {
  WEBHOOK: 'webhook',
  SLACK: 'Slack',
  EMAIL: 'email',
  TEAMS: 'Microsoft Teams',
  DISCORD: 'Discord',
};
const KIND_WORDS: Record<string, string> = {
  REGRESSED_ISSUE: 'Regression',
  NEW_ISSUE: 'New issue',
  ISSUE_FREQUENCY: 'Frequency',
  USERS_AFFECTED: 'Users affected',
  NEW_RELEASE_ISSUE: 'New in release',
  ERROR_SPIKE: 'Error spike',
  LOG_MATCH: 'Log match',
};

/** What the receiver answered: its status (HTTP, or the SMTP reply code) and the start of its body. */
export interface ReceiverAnswer {
  status: number | null;
  /** Bounded and cleaned by the channel code (`AlertAttemptOutcome.response`). */
  response: string | null;
}

/**
 * A delivery succeeded: marked delivered and, in the same transaction, recorded as ALERT_SENT in
 * its issue's activity (core/src/activity). The channel's address is not in the row: webhook and
 * Slack URLs are secrets (access/field-rules.ts) and every member reads the timeline. Test sends
 * (`testAlertRule`) are not the issue's history.
 */
export async function markDelivered(ds: DataSource, id: string, answer: ReceiverAnswer, now: number): Promise<void> {
  await ds.transaction(async (em) => {
    const [row] = await queryRows<{
      issue_id: string | null;
      project_id: string;
      kind: string;
      rule_id: string;
      attempts: number;
      is_test: boolean;
      channel_type: string | null;
    }>(
      em,
      `UPDATE alert_deliveries d SET status = 'delivered', delivered_at = $4, last_status = $2, last_error = NULL,
         last_response = $3
       WHERE d.id = $1 AND d.status = 'sending'
       RETURNING d.issue_id, d.project_id, d.kind, d.rule_id, d.attempts, d.is_test,
                 (SELECT channel_type FROM alert_rules r WHERE r.id = d.rule_id) AS channel_type`,
      [id, answer.status, clipStored(answer.response), at(now)],
    );
    if (!row?.issue_id || row.is_test) return;
    const channel = CHANNEL_WORDS[row.channel_type ?? ''] ?? 'a channel';
    await recordIssueActivity(em, {
      issueId: row.issue_id,
      projectId: row.project_id,
      kind: 'ALERT_SENT',
      message: `${KIND_WORDS[row.kind] ?? 'An'} alert sent by ${channel}`,
      data: {
        deliveryId: id,
        ruleId: row.rule_id,
        alertKind: row.kind,
        channel: row.channel_type,
        status: answer.status,
        attempts: row.attempts,
      },
      at: new Date(now),
    });
  });
}

/** A failed attempt: retried at `retryAt` (epoch ms), or given up (`failed`) when that is null. */
export async function markAttemptFailed(
  ds: DataSource,
  id: string,
  failure: ReceiverAnswer & { error: string; retryAt: number | null },
): Promise<void> {
  await ds.query(
    `UPDATE alert_deliveries SET
       status = CASE WHEN $4::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
       next_attempt_at = coalesce($4::timestamptz, next_attempt_at),
       enqueued_at = NULL, last_error = $2, last_status = $3, last_response = $5
     WHERE id = $1 AND status = 'sending'`,
    [
      id,
      failure.error.slice(0, 2000),
      failure.status,
      failure.retryAt === null ? null : at(failure.retryAt),
      clipStored(failure.response),
    ],
  );
}

/** The log keeps at most this much of an answer (the channel code already bounds it lower). */
const MAX_STORED_RESPONSE = 2000;

function clipStored(text: string | null): string | null {
  return text === null ? null : text.slice(0, MAX_STORED_RESPONSE);
}

/**
 * Deliveries that need a queue message: due and not queued recently (a lost message, a retry
 * whose back-off ended), plus `sending` ones whose lease ran out (their dispatcher died).
 * Marks them queued in the same statement, so concurrent sweepers do not both take one.
 */
export async function takeDueAlertDeliveries(
  ds: DataSource,
  requeueAfterMs: number,
  now: number,
  limit = 100,
): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    ds,
    // Picked in a CTE, run once: as `WHERE id IN (SELECT … LIMIT … SKIP LOCKED)` the planner could
    // re-run the pick per row after an ANALYZE of an empty table and take them all (decision 035).
    `WITH picked AS MATERIALIZED (
       SELECT id FROM alert_deliveries
        WHERE status IN ('pending', 'sending') AND next_attempt_at <= ${DUE.replace('$now', '$3')}
          -- A disabled or deleted rule's deliveries wait (disabled) or go (cascade), unsent.
          AND EXISTS (SELECT 1 FROM alert_rules r WHERE r.id = rule_id AND r.enabled)
          AND (status = 'sending' OR enqueued_at IS NULL
               OR enqueued_at < now() - make_interval(secs => $1::double precision / 1000))
        ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     UPDATE alert_deliveries d SET enqueued_at = now(), status = 'pending',
       next_attempt_at = least(d.next_attempt_at, ${DUE.replace('$now', '$3')})
     WHERE d.id = ANY (ARRAY(SELECT id FROM picked))
     RETURNING d.id`,
    [requeueAfterMs, limit, at(now)],
  );
  return rows.map((r) => r.id);
}
