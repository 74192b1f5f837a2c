import type { MonitorInput } from '../../graphql/graphql';
import { readString } from '../../lib/form.server';

/** What the create and edit forms send to `createMonitor` / `updateMonitor`. */
export type MonitorFormInput = MonitorInput;

const NUMBER_FIELDS = [
  ['margin', 'checkinMarginMinutes', 'Margin'],
  ['maxRuntime', 'maxRuntimeMinutes', 'Maximum runtime'],
  ['failureTolerance', 'failureTolerance', 'Failures before an issue'],
  ['recoveryThreshold', 'recoveryThreshold', 'Successes before it resolves'],
  ['timeout', 'timeoutSeconds', 'Timeout'],
] as const;

/**
 * Reads a monitor form. A blank field is left out, so an edit keeps the current value and a
 * create takes the default; the API checks ranges and says what is wrong. "Schedule" is a
 * crontab, or a whole number of minutes (an interval). Returns an error for a number field
 * that is not a whole number, before anything is sent.
 */
export function readMonitorForm(
  form: FormData,
  kind: 'CRON' | 'UPTIME',
): { input: MonitorFormInput } | { error: string } {
  const input: MonitorFormInput = {};
  const text = (name: string) => readString(form, name) || undefined;
  input.slug = text('slug');
  input.name = text('name');
  const schedule = readString(form, 'schedule');
  if (kind === 'UPTIME') {
    input.url = text('url');
    if (schedule) {
      if (!/^\d+$/.test(schedule)) return { error: 'Check every: a whole number of minutes (1–60).' };
      input.intervalMinutes = Number(schedule);
    }
  } else if (/^\d+$/.test(schedule)) {
    input.intervalMinutes = Number(schedule);
  } else if (schedule) {
    input.crontab = schedule;
    input.timezone = text('timezone') ?? 'UTC';
  } else if (text('timezone')) {
    input.timezone = text('timezone');
  }
  for (const [field, key, label] of NUMBER_FIELDS) {
    const raw = readString(form, field);
    if (!raw) continue;
    if (!/^\d+$/.test(raw)) return { error: `${label}: a whole number.` };
    input[key] = Number(raw);
  }
  return { input };
}
