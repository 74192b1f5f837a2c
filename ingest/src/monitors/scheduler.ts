import { errorMessage, evaluateCronMonitors, systemClock, type Clock } from '@tracker/core';
import type { DataSource } from 'typeorm';
import { encodeAlertJob } from '../dispatch/alert-dispatcher';
import type { Queue } from '../queue';

/** How often a worker looks for due monitor work: well inside the 5 s an uptime check may lag its due time. */
export const MONITOR_TICK_MS = 1_000;

export interface MonitorSchedulerOptions {
  ds: DataSource;
  /** Where MONITOR_FAILED deliveries are queued after commit (the dispatcher's sweeper is the backstop). */
  alerts?: Queue;
  publicUrl: () => string;
  clock?: Clock;
  intervalMs?: number;
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
    if (cron.missed + cron.timedOut > 0) options.log('info', 'monitors failed', { missed: cron.missed, timedOut: cron.timedOut });
    if (cron.alertDeliveryIds.length > 0 && options.alerts) {
      await options.alerts.enqueue(cron.alertDeliveryIds.map(encodeAlertJob)).catch(() => undefined);
    }
  };
  const runOnce = () => {
    running = running.then(pass).catch((err) => options.log('error', 'monitor pass failed', { error: errorMessage(err) }));
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
    },
  };
}
