import type { DataSource } from 'typeorm';
import { fireMonitorAlerts } from '../alerts/monitor-alerts';
import { queryRows } from '../db/query-rows';
import { MONITOR_COLUMNS, toMonitor, type Monitor, type MonitorRow } from './monitor-row';
import { recordMonitorOutcome } from './record-outcome';
import { recordTlsExpiry } from './tls-expiry';

const MINUTE = 60_000;
/** A claimed check is another worker's to retry this long after its timeout: the lease (decision 064). */
export const UPTIME_LEASE_SLACK_MS = 30_000;

/** A due uptime check, leased to one worker until `leaseUntil`. */
export interface UptimeClaim {
  monitor: Monitor;
  dueAt: Date;
  leaseUntil: Date;
}

/** What a check found, as stored (the body is never stored, only its size). */
export interface UptimeOutcome {
  ok: boolean;
  statusCode: number | null;
  ttfbMs: number | null;
  totalMs: number;
  responseBytes: number | null;
  tlsExpiresAt: Date | null;
  error: string | null;
}

/**
 * Leases up to `limit` due uptime checks to the caller: rows whose `next_run_at` passed and
 * whose lease (if any) lapsed, taken with `FOR UPDATE SKIP LOCKED` and leased in one statement,
 * so two workers never take the same check. A worker killed mid-check leaves the lease to
 * lapse (timeout + 30 s), then another takes the check again.
 */
export async function claimUptimeChecks(
  ds: DataSource,
  options: { now: number; limit: number },
): Promise<UptimeClaim[]> {
  if (options.limit <= 0) return [];
  const now = new Date(options.now);
  const rows = await queryRows<MonitorRow & { due_at: Date; lease_until: Date }>(
    ds,
    `WITH due AS (
       SELECT e.monitor_id, e.environment FROM monitor_environments e JOIN monitors m ON m.id = e.monitor_id
        WHERE e.next_run_at <= $1 AND m.kind = 'uptime' AND NOT m.paused AND (e.lease_until IS NULL OR e.lease_until <= $1)
        ORDER BY e.next_run_at LIMIT $2 FOR UPDATE OF e SKIP LOCKED)
     UPDATE monitor_environments e
        SET lease_until = $1::timestamptz + make_interval(secs => (coalesce(m.timeout_ms, 10000) + $3) / 1000.0)
       FROM due, monitors m
      WHERE e.monitor_id = due.monitor_id AND e.environment = due.environment AND m.id = e.monitor_id
      RETURNING ${MONITOR_COLUMNS.split(', ')
        .map((c) => `m.${c}`)
        .join(', ')}, e.next_run_at AS due_at, e.lease_until`,
    [now, options.limit, UPTIME_LEASE_SLACK_MS],
  );
  return rows.map((r) => ({ monitor: toMonitor(r), dueAt: new Date(r.due_at), leaseUntil: new Date(r.lease_until) }));
}

/**
 * Stores a check's result and applies the failure rules, if the lease is still the caller's
 * (a worker that took longer than its lease finds it gone and stores nothing: the check is
 * another's now). The next check is due one interval after this one was due, or after now when
 * the worker fell behind by more than an interval. The certificate's expiry has its own warning
 * issue (tls-expiry.ts). Returns the MONITOR_FAILED deliveries.
 */
export async function recordUptimeCheck(
  ds: DataSource,
  claim: UptimeClaim,
  result: UptimeOutcome,
  options: { now: number; publicUrl: string },
): Promise<{ stored: boolean; alertDeliveryIds: string[] }> {
  const now = new Date(options.now);
  const m = claim.monitor;
  return ds.transaction(async (em) => {
    const mine = await queryRows<{ monitor_id: string }>(
      em,
      `SELECT monitor_id FROM monitor_environments WHERE monitor_id = $1 AND environment = 'production'
          AND lease_until = $2 FOR UPDATE`,
      [m.id, claim.leaseUntil],
    );
    if (mine.length === 0) return { stored: false, alertDeliveryIds: [] };
    await em.query(
      `INSERT INTO monitor_check_ins (monitor_id, project_id, environment, status, duration_ms, expected_at, status_code,
         ttfb_ms, response_bytes, tls_expires_at, error, created_at, updated_at)
       VALUES ($1, $2, 'production', $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)`,
      [
        m.id,
        m.projectId,
        result.ok ? 'ok' : 'error',
        Math.round(result.totalMs),
        claim.dueAt,
        result.statusCode,
        result.ttfbMs === null ? null : Math.round(result.ttfbMs),
        result.responseBytes,
        result.tlsExpiresAt,
        result.error,
        now,
      ],
    );
    const interval = (m.intervalMinutes ?? 1) * MINUTE;
    let next = claim.dueAt.getTime() + interval;
    if (next <= options.now) next = options.now + interval;
    await em.query(
      `UPDATE monitor_environments SET next_run_at = $2, expected_at = $2, lease_until = NULL, last_check_in_at = $3
        WHERE monitor_id = $1 AND environment = 'production'`,
      [m.id, new Date(next), now],
    );
    const trigger = await recordMonitorOutcome(em, {
      monitor: m,
      environment: 'production',
      outcome: result.ok ? 'success' : 'failure',
      title: `Uptime check of ${m.slug} failing: ${result.error ?? 'down'}`,
      reason: result.ok
        ? `Uptime check of ${m.slug} answered ${result.statusCode} in ${Math.round(result.totalMs)} ms: recovered`
        : `Uptime check of ${m.slug} failed: ${result.error}`,
      now,
    });
    const certificate = await recordTlsExpiry(em, m, result.tlsExpiresAt, now);
    const triggers = [trigger, certificate].filter((t) => t !== null);
    const alertDeliveryIds = await fireMonitorAlerts(em, triggers, options);
    return { stored: true, alertDeliveryIds };
  });
}
