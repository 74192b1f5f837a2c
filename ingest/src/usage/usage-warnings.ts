import {
  errorMessage,
  billingPageLink,
  claimDueUsageWarnings,
  markUsageWarningFailed,
  markUsageWarningSent,
  periodEnd,
  queueUsageWarnings,
  renderUsageWarningEmail,
  systemClock,
  type Clock,
  type DueUsageWarning,
  type SmtpConfig,
  type UsageReader,
} from '@tracker/core';
import type { DataSource } from 'typeorm';
import { backoffDelayMs, MAX_DELIVERY_ATTEMPTS } from '../alerts';
import { sendUsageWarningEmail } from './usage-warning-mailer';

export interface UsageWarningsOptions {
  ds: DataSource;
  /** Where the monthly counters live (Redis or the `org_usage` table). */
  reader: UsageReader;
  /** Absent: warnings that come due are logged and recorded as `unsent`, not retried. */
  smtp?: SmtpConfig;
  /** The dashboard's origin, for the billing link (read at send time: known once listening). */
  publicUrl: () => string;
  /** Between two runs (default 60 s). */
  intervalMs?: number;
  /** Before the first run (default: `intervalMs`). */
  firstRunMs?: number;
  /** Per SMTP stage (default 10 s). */
  timeoutMs?: number;
  /**
   * Which month's usage is read and when a failed email is tried again (default the wall clock).
   * When a queued warning is due is the database's `now()`, one clock for every worker.
   */
  clock?: Clock;
  log?: (level: 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>) => void;
}

export interface UsageWarningsRun {
  /** Warnings this run inserted (to send, or superseded by a higher threshold). */
  queued: number;
  sent: number;
  /** Due but not sendable: no SMTP configured, or no owner or admin to send to. */
  unsent: number;
  /** Attempts that failed (retried later, or given up on). */
  failed: number;
}

export interface RunningUsageWarnings {
  /** One run now (also what the timer does): queue what is due, then send what is queued. */
  runOnce(): Promise<UsageWarningsRun>;
  stop(): Promise<void>;
}

/** How long a claimed warning is ours; after that another process may take it (we died). */
const LEASE_MS = 5 * 60_000;
const CLAIM_BATCH = 20;

/**
 * The usage-warning job of the worker role (issue 5): every `intervalMs`, reads the usage of the
 * organizations that have a counter this month, queues a warning for each 80 % / 100 % threshold
 * newly crossed (once per period, whatever the number of processes: core's `queueUsageWarnings`),
 * and emails the due ones to owners and admins. Runs never overlap within a process; across
 * processes the unique insert and `SKIP LOCKED` claims keep each email single.
 */
export function startUsageWarnings(options: UsageWarningsOptions): RunningUsageWarnings {
  const intervalMs = options.intervalMs ?? 60_000;
  const log = options.log ?? (() => undefined);
  let stopped = false;
  let running: Promise<UsageWarningsRun> | undefined;
  let timer: NodeJS.Timeout | undefined;

  function schedule(ms: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((err) => log('error', 'usage warnings failed', { error: errorMessage(err) }))
        .finally(() => schedule(intervalMs));
    }, ms);
    timer.unref();
  }

  function runOnce(): Promise<UsageWarningsRun> {
    // A call while a run is going joins it: two overlapping runs in one process gain nothing.
    running ??= run(options).finally(() => (running = undefined));
    return running;
  }

  async function run(o: UsageWarningsOptions): Promise<UsageWarningsRun> {
    const queued = await queueUsageWarnings(o.ds, o.reader, new Date((o.clock ?? systemClock)()));
    for (const w of queued) {
      if (w.status === 'pending') {
        log('info', 'usage warning due', {
          organizationId: w.organizationId,
          meter: w.meter,
          threshold: w.threshold,
          used: w.used,
          limit: w.quota,
        });
      }
    }
    const result: UsageWarningsRun = { queued: queued.length, sent: 0, unsent: 0, failed: 0 };
    for (;;) {
      if (stopped) break;
      const due = await claimDueUsageWarnings(o.ds, { limit: CLAIM_BATCH, leaseMs: LEASE_MS });
      if (due.length === 0) break;
      for (const w of due) result[await send(o, w)] += 1;
    }
    return result;
  }

  async function send(o: UsageWarningsOptions, w: DueUsageWarning): Promise<'sent' | 'unsent' | 'failed'> {
    const about = { warningId: w.id, organizationId: w.organization.id, meter: w.meter, threshold: w.threshold };
    if (!o.smtp || w.recipients.length === 0) {
      const why = !o.smtp ? 'SMTP is not configured (TRACKER_SMTP_URL)' : 'the organization has no owner or admin';
      log('warn', `usage warning not emailed: ${why}`, { ...about, used: w.used, limit: w.quota });
      await markUsageWarningFailed(o.ds, w.id, why, null, 'unsent');
      return 'unsent';
    }
    const email = renderUsageWarningEmail({
      organizationName: w.organization.name,
      meter: w.meter,
      threshold: w.threshold,
      used: w.used,
      limit: w.quota,
      period: w.period,
      periodEnd: periodEnd(new Date(`${w.period}-01T00:00:00Z`)),
      billingUrl: billingPageLink(o.publicUrl(), w.organization.slug),
    });
    try {
      await sendUsageWarningEmail(o.smtp, w.recipients, email, { timeoutMs: o.timeoutMs ?? 10_000, warningId: w.id });
      await markUsageWarningSent(o.ds, w.id, w.recipients);
      log('info', 'usage warning sent', { ...about, recipients: w.recipients.length });
      return 'sent';
    } catch (err) {
      const message = `SMTP: ${errorMessage(err)}`.slice(0, 500);
      const retryAt =
        w.attempts < MAX_DELIVERY_ATTEMPTS ? new Date((o.clock ?? systemClock)() + backoffDelayMs(w.attempts)) : null;
      await markUsageWarningFailed(o.ds, w.id, message, retryAt);
      log(
        retryAt ? 'warn' : 'error',
        retryAt ? 'usage warning email failed; will retry' : 'usage warning email failed for good',
        {
          ...about,
          attempts: w.attempts,
          error: message,
        },
      );
      return 'failed';
    }
  }

  schedule(options.firstRunMs ?? intervalMs);

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
