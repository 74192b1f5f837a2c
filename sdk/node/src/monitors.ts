import { sendCheckIn, type CheckInInput, type MonitorConfig } from '@tracker/sdk-core';

export type { CheckInInput, MonitorConfig };

/** Sends one check-in; returns its id (pass it to the `ok` or `error` that ends an `in_progress`). */
export function checkIn(input: CheckInInput, config?: MonitorConfig): string {
  return sendCheckIn(input, config);
}

/**
 * Runs `fn` as one run of the monitor `slug`: `in_progress` before, then `ok` or `error` with
 * the duration (the error is rethrown: the app's failure stays the app's). `config` creates or
 * updates the monitor's schedule, as Sentry's `withMonitor` does.
 */
export function withMonitor<T>(slug: string, fn: () => T, config?: MonitorConfig): T {
  const started = Date.now();
  const checkInId = sendCheckIn({ slug, status: 'in_progress' }, config);
  // The config goes with every check-in (as Sentry's does): the two requests may arrive in either
  // order, and the edge answers 404 for a slug it does not know unless the check-in can create it.
  const finish = (status: 'ok' | 'error') =>
    sendCheckIn({ slug, status, checkInId, duration: Date.now() - started }, config);
  let result: T;
  try {
    result = fn();
  } catch (err) {
    finish('error');
    throw err;
  }
  if (result && typeof (result as { then?: unknown }).then === 'function') {
    return (result as unknown as Promise<unknown>).then(
      (value) => {
        finish('ok');
        return value;
      },
      (err) => {
        finish('error');
        throw err;
      },
    ) as T;
  }
  finish('ok');
  return result;
}
