import { CronExpressionParser } from 'cron-parser';
import { AppError } from '../errors';

/** A cron monitor's schedule: a crontab line read in a time zone, or a fixed interval. */
export type MonitorSchedule =
  { type: 'crontab'; crontab: string; timezone: string } | { type: 'interval'; minutes: number };

export const MAX_INTERVAL_MINUTES = 60 * 24 * 31;

/** True for an IANA zone name this runtime knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Throws BAD_USER_INPUT naming the field when the schedule cannot be evaluated: a crontab
 * cron-parser rejects (five fields, or six with seconds is refused: a check-in every second is
 * not a cron job), a zone that does not exist, an interval out of range.
 */
export function checkSchedule(schedule: MonitorSchedule): MonitorSchedule {
  if (schedule.type === 'interval') {
    if (!Number.isInteger(schedule.minutes) || schedule.minutes < 1 || schedule.minutes > MAX_INTERVAL_MINUTES) {
      throw new AppError('BAD_USER_INPUT', `schedule: an interval is 1 to ${MAX_INTERVAL_MINUTES} minutes`);
    }
    return schedule;
  }
  const crontab = schedule.crontab.trim().replace(/\s+/g, ' ');
  if (!isTimeZone(schedule.timezone)) {
    throw new AppError(
      'BAD_USER_INPUT',
      `timezone: "${schedule.timezone}" is not a time zone (e.g. Europe/Berlin, UTC)`,
    );
  }
  const fields = crontab.split(' ');
  if (fields.length !== 5 && !(fields.length === 1 && crontab.startsWith('@'))) {
    throw new AppError('BAD_USER_INPUT', `crontab: "${crontab}" needs five fields: minute hour day month weekday`);
  }
  try {
    CronExpressionParser.parse(crontab, { tz: schedule.timezone, currentDate: new Date(0) }).next();
  } catch (err) {
    throw new AppError('BAD_USER_INPUT', `crontab: "${crontab}" is not a crontab (${(err as Error).message})`);
  }
  return { type: 'crontab', crontab, timezone: schedule.timezone };
}

/**
 * The first slot strictly after `afterMs`. Crontabs are read in their zone, so "0 2 * * *" in
 * Europe/Berlin is 01:00 UTC in winter and 00:00 UTC in summer; on the night the clocks skip
 * 02:00 cron-parser moves the slot to the next existing hour (docs/monitors.md).
 */
export function nextSlotAfter(schedule: MonitorSchedule, afterMs: number): number {
  if (schedule.type === 'interval') return afterMs + schedule.minutes * 60_000;
  const expr = CronExpressionParser.parse(schedule.crontab, {
    tz: schedule.timezone,
    currentDate: new Date(afterMs),
  });
  return expr.next().getTime();
}

/** The schedule as one line for people and issue titles: "0 2 * * * (Europe/Berlin)", "every 10 minutes". */
export function describeSchedule(schedule: MonitorSchedule): string {
  if (schedule.type === 'interval') {
    return schedule.minutes === 1 ? 'every minute' : `every ${schedule.minutes} minutes`;
  }
  return `${schedule.crontab} (${schedule.timezone})`;
}

/** The slot's wall-clock time in the schedule's zone, "02:00", for titles. */
export function slotLabel(schedule: MonitorSchedule, slotMs: number): string {
  const timeZone = schedule.type === 'crontab' ? schedule.timezone : 'UTC';
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hour12: false }).format(
    new Date(slotMs),
  );
}
