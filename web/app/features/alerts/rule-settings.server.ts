import { readString } from '../../lib/form.server';
import type { AlertFilterInput, AlertKind, Level } from '../../graphql/graphql';
import { MUTE_DURATIONS } from './mute-durations';

/** What the rule form sends beside kind and channel, as the API's arguments. */
export interface RuleSettingsVariables {
  threshold: number | null;
  windowMinutes: number | null;
  query: string | null;
  filter: AlertFilterInput;
  actionIntervalMinutes: number | null;
  digestMinutes: number | null;
}

const COUNTING: readonly string[] = ['ISSUE_FREQUENCY', 'USERS_AFFECTED', 'ERROR_SPIKE'];

/** An optional whole number; `error` names the field when the text is not one. */
function readInt(form: FormData, name: string, label: string): number | null {
  const text = readString(form, name);
  if (text === '') return null;
  if (!/^\d{1,9}$/.test(text)) throw new RuleFormError(`${label}: a whole number, please.`);
  return Number(text);
}

export class RuleFormError extends Error {}

/**
 * Reads the rule form. Fields a kind does not use are sent as null (the form shows them only
 * for their kinds, but without JavaScript every field is there), so switching a rule's kind
 * never trips the API's "only for …" check. The API checks everything else and its message is
 * shown as is.
 */
export function readRuleSettings(form: FormData, kind: AlertKind): RuleSettingsVariables {
  const counting = COUNTING.includes(kind);
  const environments = readString(form, 'environments')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const tags = readString(form, 'tags')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .map((pair) => {
      const i = pair.indexOf(':');
      if (i <= 0 || i === pair.length - 1) throw new RuleFormError(`Tags: write each as key:value ("${pair}").`);
      return { key: pair.slice(0, i).trim(), value: pair.slice(i + 1).trim() };
    });
  const minLevel = readString(form, 'minLevel');
  const assigned = readString(form, 'assigned');
  const projectWide = kind === 'ERROR_SPIKE' || kind === 'LOG_MATCH';
  const filter: AlertFilterInput = {
    environments: environments.length > 0 ? environments : null,
    minLevel: minLevel ? (minLevel as Level) : null,
    tags: tags.length > 0 ? tags : null,
    release: readString(form, 'release') || null,
    assigned: projectWide || assigned === '' ? null : assigned === 'yes',
  };
  return {
    threshold: counting ? readInt(form, 'threshold', 'Threshold') : null,
    windowMinutes: counting ? readInt(form, 'windowMinutes', 'Window') : null,
    query: kind === 'LOG_MATCH' ? readString(form, 'query') || null : null,
    filter,
    actionIntervalMinutes: readInt(form, 'actionIntervalMinutes', 'Interval'),
    digestMinutes: readInt(form, 'digestMinutes', 'Digest'),
  };
}

/** The ISO time a mute chosen in a form ends; null for an unknown choice. */
export function readMuteUntil(form: FormData, now = Date.now()): string | null {
  const d = MUTE_DURATIONS.find((m) => m.value === readString(form, 'duration'));
  return d ? new Date(now + d.ms).toISOString() : null;
}
