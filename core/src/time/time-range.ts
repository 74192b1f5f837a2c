import { AppError } from '../errors';
import { parseClientTime } from './parse-client-time';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Half-open: `from <= t < to`, so consecutive ranges never count a row twice. */
export interface TimeRange {
  from: Date;
  to: Date;
}

/**
 * The range a client asked for, with defaults (`to` = now, `from` = `to` minus `defaultDays`)
 * and a ceiling on its length, because every read that takes one scans it.
 */
export function resolveTimeRange(
  input: { from?: string | null; to?: string | null },
  options: { defaultDays: number; maxDays: number; now?: Date },
): TimeRange {
  const to = input.to ? parseClientTime('to', input.to) : (options.now ?? new Date());
  const from = input.from ? parseClientTime('from', input.from) : new Date(to.getTime() - options.defaultDays * DAY_MS);
  if (from.getTime() >= to.getTime()) throw new AppError('BAD_USER_INPUT', 'from: must be before to');
  if (to.getTime() - from.getTime() > options.maxDays * DAY_MS) {
    throw new AppError('BAD_USER_INPUT', `from: the range may span at most ${options.maxDays} days`);
  }
  return { from, to };
}
