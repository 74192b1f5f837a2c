import type { EntityManager } from 'typeorm';
import { recordIssueActivity } from '../activity/record-activity';
import { queryRows } from '../db/query-rows';
import { nextMonitorState, type MonitorCounters } from './next-monitor-state';

/** What the failure rules need of a monitor. */
export interface MonitorRef {
  id: string;
  projectId: string;
  slug: string;
  kind: 'cron' | 'uptime';
  failureTolerance: number;
  recoveryThreshold: number;
}

/** A monitor issue that opened or reopened: MONITOR_FAILED rules fire for it after commit. */
export interface MonitorFailedTrigger {
  projectId: string;
  issueId: string;
  monitorId: string;
  slug: string;
  environment: string;
  reason: string;
  regressed: boolean;
}

/** The issue of one monitor in one environment: one fingerprint, so it reopens instead of multiplying. */
export function monitorFingerprint(monitorId: string, environment: string): string {
  return `monitor:${monitorId}:${environment}`;
}

/**
 * Applies one outcome to a monitor's environment, in the caller's transaction: the counters
 * (nextMonitorState), then the issue. `title` names the failure ("Monitor nightly-backup missed
 * its 02:00 check-in") and becomes the issue's title when it opens; `reason` is the activity's
 * sentence. Returns the trigger when the issue opened or regressed. The environment's row is
 * locked first, so two workers applying outcomes to it take turns.
 */
export async function recordMonitorOutcome(
  em: EntityManager,
  input: {
    monitor: MonitorRef;
    environment: string;
    outcome: 'success' | 'failure';
    title: string;
    reason: string;
    now: Date;
  },
): Promise<MonitorFailedTrigger | null> {
  const { monitor, environment, now } = input;
  const [row] = await queryRows<{
    status: 'ok' | 'failing';
    consecutive_failures: number;
    consecutive_successes: number;
    issue_id: string | null;
  }>(
    em,
    `SELECT status, consecutive_failures, consecutive_successes, issue_id FROM monitor_environments
      WHERE monitor_id = $1 AND environment = $2 FOR UPDATE`,
    [monitor.id, environment],
  );
  if (!row) return null;
  const counters: MonitorCounters = {
    status: row.status,
    consecutiveFailures: row.consecutive_failures,
    consecutiveSuccesses: row.consecutive_successes,
  };
  const step = nextMonitorState(counters, input.outcome, monitor.failureTolerance, monitor.recoveryThreshold);
  let issueId = row.issue_id;
  let trigger: MonitorFailedTrigger | null = null;
  if (step.openIssue) {
    const opened = await openMonitorIssue(em, {
      projectId: monitor.projectId,
      fingerprint: monitorFingerprint(monitor.id, environment),
      type: monitor.kind === 'cron' ? 'MonitorFailure' : 'UptimeFailure',
      level: 'error',
      culprit: `${monitor.slug} (${environment})`,
      title: input.title,
      activity: { message: input.reason, data: { monitor: monitor.slug, environment } },
      now,
    });
    issueId = opened.issueId;
    if (opened.changed) {
      trigger = {
        projectId: monitor.projectId,
        issueId,
        monitorId: monitor.id,
        slug: monitor.slug,
        environment,
        reason: input.reason,
        regressed: opened.regressed,
      };
    }
  }
  if (step.resolveIssue && issueId) {
    await resolveMonitorIssue(
      em,
      { id: issueId, projectId: monitor.projectId },
      { message: input.reason, data: { monitor: monitor.slug, environment } },
      now,
    );
  }
  await em.query(
    `UPDATE monitor_environments SET status = $3, consecutive_failures = $4, consecutive_successes = $5, issue_id = $6
      WHERE monitor_id = $1 AND environment = $2`,
    [monitor.id, environment, step.status, step.consecutiveFailures, step.consecutiveSuccesses, issueId],
  );
  return trigger;
}

/** The issue a monitor opens: failures, or the TLS certificate's coming expiry (tls-expiry.ts). */
export interface MonitorIssueSpec {
  projectId: string;
  fingerprint: string;
  type: string;
  level: 'error' | 'warning';
  culprit: string;
  title: string;
  activity: { message: string; data: Record<string, unknown> };
  now: Date;
  /** False: an issue already open only gets its title and last-seen (a daily warning is not an event). */
  countWhileOpen?: boolean;
}

/**
 * Creates a monitor's issue, or reopens it as a regression when it was resolved (or snoozed).
 * A failure while the issue is already open only counts (an event more, last seen now).
 * `changed` says whether it opened or reopened (what alert rules fire on).
 */
export async function openMonitorIssue(
  em: EntityManager,
  spec: MonitorIssueSpec,
): Promise<{ issueId: string; changed: boolean; regressed: boolean }> {
  const { projectId, fingerprint, now } = spec;
  const [existing] = await queryRows<{ id: string; status: string }>(
    em,
    'SELECT id, status FROM issues WHERE project_id = $1 AND fingerprint = $2 FOR UPDATE',
    [projectId, fingerprint],
  );
  const activity = { projectId, message: spec.activity.message, data: spec.activity.data, at: now };
  if (!existing) {
    const [row] = await queryRows<{ id: string }>(
      em,
      `INSERT INTO issues (project_id, fingerprint, title, type, culprit, level, first_seen, last_seen, event_count)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, 1) RETURNING id`,
      [projectId, fingerprint, spec.title, spec.type, spec.culprit, spec.level, now],
    );
    await recordIssueActivity(em, { ...activity, issueId: row.id, kind: 'FIRST_SEEN' });
    return { issueId: row.id, changed: true, regressed: false };
  }
  const reopen = existing.status !== 'open';
  const count = reopen || spec.countWhileOpen !== false ? ', event_count = event_count + 1' : '';
  await em.query(
    `UPDATE issues SET last_seen = $2, title = $3${count}
       ${reopen ? ", status = 'open', is_regression = true, resolved_at = NULL, snoozed_until = NULL, snooze = NULL" : ''}
      WHERE id = $1`,
    [existing.id, now, spec.title],
  );
  if (reopen) await recordIssueActivity(em, { ...activity, issueId: existing.id, kind: 'REGRESSED' });
  return { issueId: existing.id, changed: reopen, regressed: reopen };
}

/** Resolves a monitor's issue (recovery, or a renewed certificate); records why. False when it was not open. */
export async function resolveMonitorIssue(
  em: EntityManager,
  issue: { id: string; projectId: string },
  activity: { message: string; data: Record<string, unknown> },
  now: Date,
): Promise<boolean> {
  const resolved = await queryRows<{ id: string }>(
    em,
    `UPDATE issues SET status = 'resolved', resolved_at = $2, snoozed_until = NULL, snooze = NULL
      WHERE id = $1 AND status <> 'resolved' RETURNING id`,
    [issue.id, now],
  );
  if (resolved.length === 0) return false;
  await recordIssueActivity(em, {
    issueId: issue.id,
    projectId: issue.projectId,
    kind: 'RESOLVED',
    message: activity.message,
    data: activity.data,
    at: now,
  });
  return true;
}
