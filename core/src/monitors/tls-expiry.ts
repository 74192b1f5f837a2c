import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import type { MonitorFailedTrigger, MonitorRef } from './record-outcome';
import { openMonitorIssue, resolveMonitorIssue } from './record-outcome';

const DAY = 86_400_000;
/** How long before a certificate ends its uptime monitor opens a warning (issue 33). */
export const TLS_WARNING_DAYS = 14;

/** The certificate warning's own issue: apart from the monitor's failures, so each resolves on its own. */
export function tlsExpiryFingerprint(monitorId: string): string {
  return `monitor:${monitorId}:tls-expiry`;
}

/**
 * Applies the certificate expiry an uptime check saw, in the check's transaction: within 14 days
 * of the end (or past it) the monitor's certificate issue opens, at level warning, or has its
 * title updated with the days left; a check that sees a certificate good for longer resolves it
 * (renewed). A check without a certificate (plain http, or no answer) changes nothing: a site
 * that is down says nothing about its certificate. Returns the trigger when the issue opened or
 * reopened, so MONITOR_FAILED rules tell someone once, not at every check.
 */
export async function recordTlsExpiry(
  em: EntityManager,
  monitor: MonitorRef & { url: string | null },
  tlsExpiresAt: Date | null,
  now: Date,
): Promise<MonitorFailedTrigger | null> {
  if (!tlsExpiresAt || Number.isNaN(tlsExpiresAt.getTime())) return null;
  const fingerprint = tlsExpiryFingerprint(monitor.id);
  const host = hostOf(monitor.url) ?? monitor.slug;
  const date = tlsExpiresAt.toISOString().slice(0, 10);
  const data = { monitor: monitor.slug, expiresAt: tlsExpiresAt.toISOString() };
  const left = tlsExpiresAt.getTime() - now.getTime();
  if (left > TLS_WARNING_DAYS * DAY) {
    const [open] = await queryRows<{ id: string }>(
      em,
      `SELECT id FROM issues WHERE project_id = $1 AND fingerprint = $2 AND status <> 'resolved'`,
      [monitor.projectId, fingerprint],
    );
    if (open) {
      await resolveMonitorIssue(
        em,
        { id: open.id, projectId: monitor.projectId },
        { message: `The TLS certificate of ${host} was renewed: it now ends on ${date}`, data },
        now,
      );
    }
    return null;
  }
  const days = Math.floor(left / DAY);
  const when = left <= 0 ? `ended on ${date}` : `ends on ${date} (in ${days === 0 ? 'less than a day' : plural(days)})`;
  const title = `TLS certificate of ${host} ${when}`;
  const opened = await openMonitorIssue(em, {
    projectId: monitor.projectId,
    fingerprint,
    type: 'CertificateExpiry',
    level: 'warning',
    culprit: `${monitor.slug} (certificate)`,
    title,
    activity: { message: `Uptime check of ${monitor.slug}: the TLS certificate of ${host} ${when}`, data },
    now,
    countWhileOpen: false,
  });
  if (!opened.changed) return null;
  return {
    projectId: monitor.projectId,
    issueId: opened.issueId,
    monitorId: monitor.id,
    slug: monitor.slug,
    environment: 'production',
    reason: title,
    regressed: opened.regressed,
  };
}

function plural(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
