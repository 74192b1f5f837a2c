/** The quota period (docs/quotas.md): the calendar month in UTC, as `YYYY-MM`. */
export function quotaPeriod(now: Date = new Date()): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** When the period containing `now` ends: the first instant of the next UTC month. */
export function periodEnd(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** Whole seconds until the period resets (at least 1): the `Retry-After` of an over-quota answer. */
export function secondsUntilPeriodEnd(now: Date = new Date()): number {
  return Math.max(1, Math.ceil((periodEnd(now).getTime() - now.getTime()) / 1000));
}
