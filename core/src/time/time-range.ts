import { AppError } from '../errors';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Half-open: `from <= t < to`, so consecutive ranges never count a row twice. */
export interface TimeRange {
  from: Date;
  to: Date;
}

/**
 * An ISO 8601 date-time from a client, or BAD_USER_INPUT naming the field. A bare date or a
 * number is refused: "2026-01-02" is midnight in which zone?
 */
export function parseInstant(field: string, value: string): Date {
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) || Number.isNaN(time.getTime())) {
    throw new AppError('BAD_USER_INPUT', `${field}: must be an ISO 8601 date-time`);
  }
  return time;
}

/**
 * The range a client asked for, with defaults (`to` = now, `from` = `to` minus `defaultDays`)
 * and a ceiling on its length, because every read that takes one scans it.
 */
export function resolveTimeRange(
  input: { from?: string | null; to?: string | null },
  options: { defaultDays: number; maxDays: number; now?: Date },
): TimeRange {
  const to = input.to ? parseInstant('to', input.to) : (options.now ?? new Date());
  const from = input.from ? parseInstant('from', input.from) : new Date(to.getTime() - options.defaultDays * DAY_MS);
  if (from.getTime() >= to.getTime()) throw new AppError('BAD_USER_INPUT', 'from: must be before to');
  if (to.getTime() - from.getTime() > options.maxDays * DAY_MS) {
    throw new AppError('BAD_USER_INPUT', `from: the range may span at most ${options.maxDays} days`);
  }
  return { from, to };
}
