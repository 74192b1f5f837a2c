import {
  claimUptimeChecks,
  errorMessage,
  evaluateCronMonitors,
  recordUptimeCheck,
  systemClock,
  type Clock,
  type UptimeClaim,
} from '@tracker/core';
import type { DataSource } from 'typeorm';
import { encodeAlertJob } from '../dispatch/alert-dispatcher';
import type { Queue } from '../queue';
import type { HostResolver } from '../alerts/types';
import { runUptimeCheck } from './uptime-check';

/** Uptime checks one worker runs at once: 1,000 monitors at a 1-minute interval need ~17 a second. */
export const MAX_UPTIME_IN_FLIGHT = 200;

/** How often a worker looks for due monitor work: well inside the 5 s an uptime check may lag its due time. */
export const MONITOR_TICK_MS = 1_000;

export interface MonitorSchedulerOptions {
  ds: DataSource;
  /** Where MONITOR_FAILED deliveries are queued after commit (the dispatcher's sweeper is the backstop). */
  alerts?: Queue;
  publicUrl: () => string;
  clock?: Clock;
  intervalMs?: number;
  /** TRACKER_ALLOW_PRIVATE_TARGETS: uptime checks may call private and loopback addresses. */
  allowPrivateTargets?: boolean;
  /** Tests: how uptime checks resolve names (default the system's). */
  resolveHost?: HostResolver;
  log: (level: 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>) => void;
}

export interface RunningMonitorScheduler {
  /** One pass now (tests with a held clock call it instead of waiting for the timer). */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The worker role's monitor scheduler (issue 33): every tick, one pass of missed-check-in and
 * timeout detection. Any number of workers run it; the database decides which takes each due
 * row (decision 064), so nothing here coordinates with the others.
 */
export function startMonitorScheduler(options: MonitorSchedulerOptions): RunningMonitorScheduler {
  const clock = options.clock ?? systemClock;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const pass = async () => {
    const cron = await evaluateCronMonitors(options.ds, { now: clock(), publicUrl: options.publicUrl() });
    if (cron.missed + cron.timedOut > 0)
      options.log('info', 'monitors failed', { missed: cron.missed, timedOut: cron.timedOut });
    if (cron.alertDeliveryIds.length > 0 && options.alerts) {
      await options.alerts.enqueue(cron.alertDeliveryIds.map(encodeAlertJob)).catch(() => undefined);
    }
  };
  // Uptime checks run beside the cron pass, many at once; each is leased in the database.
  let inFlight = 0;
  const checks = new Set<Promise<void>>();
  const check = async (claim: UptimeClaim) => {
    const result = await runUptimeCheck(claim.monitor.url!, {
      timeoutMs: claim.monitor.timeoutMs ?? 10_000,
      allowPrivate: options.allowPrivateTargets === true,
      resolveHost: options.resolveHost,
    });
    const stored = await recordUptimeCheck(options.ds, claim, result, { now: clock(), publicUrl: options.publicUrl() });
    if (stored.alertDeliveryIds.length > 0 && options.alerts) {
      await options.alerts.enqueue(stored.alertDeliveryIds.map(encodeAlertJob)).catch(() => undefined);
    }
  };
  const startUptime = async () => {
    const claims = await claimUptimeChecks(options.ds, { now: clock(), limit: MAX_UPTIME_IN_FLIGHT - inFlight });
    for (const claim of claims) {
      inFlight += 1;
      const p: Promise<void> = check(claim)
        .catch((err) => options.log('warn', 'uptime check failed to record', { error: errorMessage(err) }))
        .finally(() => {
          inFlight -= 1;
          checks.delete(p);
        });
      checks.add(p);
    }
  };
  const runOnce = () => {
    running = running
      .then(async () => {
        await pass();
        if (!stopped) await startUptime();
      })
      .catch((err) => options.log('error', 'monitor pass failed', { error: errorMessage(err) }));
    return running;
  };
  const timer = setInterval(() => {
    if (!stopped) void runOnce();
  }, options.intervalMs ?? MONITOR_TICK_MS);
  timer.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await Promise.all([...checks]);
    },
  };
}
