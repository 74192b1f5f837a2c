import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { assertAllowed, findProjectAccess, isUuid, needOf, type Caller } from '../access';
import { AlertDelivery, AlertRule } from '../entities';
import { AppError } from '../errors';
import type { AlertSender } from './delivery-attempt';

/** Test sends per rule per minute: enough to fix a URL by trial, too few to aim Tracker at someone. */
export const MAX_TEST_SENDS_PER_MINUTE = 5;
const MINUTE_MS = 60_000;
/** Stands in for the issue a real alert would be about (no issue caused a test). */
const TEST_ISSUE_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Owners and admins (as for changing the rule: a test sends data to the rule's target): sends a
 * test notification to the rule's channel now, through the same channel code as real alerts
 * (`send`), and records it in the rule's delivery log marked as a test. One attempt, never
 * retried: the answer (status and the start of the receiver's body, or why it failed, in users'
 * words) is what the caller wants to see. Another tenant's rule answers NOT_FOUND like a missing
 * one; a disabled rule can be tested (that is how one checks it before enabling it).
 */
export async function testAlertRule(
  ds: DataSource,
  caller: Caller,
  id: string,
  options: { send: AlertSender | undefined; now: number; publicUrl: string },
): Promise<AlertDelivery> {
  const rule = isUuid(id) ? await ds.manager.findOneBy(AlertRule, { id }) : null;
  const access = rule && (await findProjectAccess(ds, caller, rule.projectId));
  if (!rule || !access) throw new AppError('NOT_FOUND', 'Alert rule not found');
  assertAllowed(caller, access.role, needOf('admin'), 'send test notifications');

  const since = new Date(options.now - MINUTE_MS).toISOString();
  const [{ n }] = await ds.query(
    `SELECT count(*)::int AS n FROM alert_deliveries WHERE rule_id = $1 AND is_test AND created_at > $2`,
    [rule.id, since],
  );
  if (n >= MAX_TEST_SENDS_PER_MINUTE) {
    throw new AppError(
      'RATE_LIMITED',
      `At most ${MAX_TEST_SENDS_PER_MINUTE} test notifications a minute per rule; try again in a minute.`,
      60,
    );
  }

  // After the access checks: a caller who may not test learns nothing about this process's wiring.
  if (!options.send) throw new Error('testAlertRule: this process was given no alert sender');
  const deliveryId = randomUUID();
  const now = new Date(options.now);
  const payload = testPayload(rule, access.project.name, options.publicUrl, now);
  const outcome = await options.send({
    id: deliveryId,
    ruleId: rule.id,
    kind: rule.kind,
    payload,
    createdAt: now,
    channelType: rule.channelType,
    url: rule.url,
    email: rule.email,
    secret: rule.secret,
  });
  // Written after the attempt, not before: a row in `sending` would be picked up by a sweeper
  // and sent again if this process died mid-attempt; a test is sent once.
  return ds.manager.save(
    Object.assign(new AlertDelivery(), {
      id: deliveryId,
      ruleId: rule.id,
      projectId: rule.projectId,
      issueId: null,
      kind: rule.kind,
      status: outcome.ok ? 'delivered' : 'failed',
      attempts: 1,
      lastError: outcome.ok ? null : testSendWords(outcome.error),
      lastStatus: outcome.status,
      lastResponse: outcome.response,
      payload,
      createdAt: now,
      nextAttemptAt: now,
      enqueuedAt: null,
      deliveredAt: outcome.ok ? now : null,
      isTest: true,
      firstAttemptAt: now,
      lastAttemptAt: now,
    }),
  );
}

/**
 * The channel code's words are written for real alerts, which are retried ("Tracker will try
 * again."); a test is not, and its answer must not promise another attempt (issue 31).
 */
function testSendWords(error: string | null): string {
  const words = (error ?? 'The test notification failed.').replace(/\s*Tracker will try again\.?$/, '');
  return `${words} A test notification is sent once and not retried (real alerts are).`;
}

/**
 * The test message: the shape of a real alert of the rule's kind (so a receiver's parsing is
 * tested too), with `test: true` and a stand-in issue that says what it is.
 */
function testPayload(rule: AlertRule, projectName: string, publicUrl: string, now: Date): Record<string, unknown> {
  const alertsPage = `${publicUrl}/projects/${rule.projectId}/alerts`;
  return {
    test: true,
    project: { id: rule.projectId, name: projectName },
    issue: {
      id: TEST_ISSUE_ID,
      title: 'Test notification from Tracker',
      type: 'TestNotification',
      culprit: null,
      status: 'OPEN',
      eventCount: 0,
      userCount: 0,
      firstSeen: now.toISOString(),
      lastSeen: now.toISOString(),
      url: alertsPage,
    },
    event: {
      eventId: TEST_ISSUE_ID,
      release: null,
      environment: 'test',
      message: 'Sent with “Send test notification” to check this channel. No issue triggered it.',
    },
    links: { muteRule: `${alertsPage}/mute?rule=${rule.id}` },
  };
}
