import type { AlertPayload } from './types';

const TITLE_MAX = 200;
/** Digest items listed by name in a message (the payload keeps up to its own limit). */
const DIGEST_LINES_MAX = 10;

/** One line, no control characters, at most `max` characters. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const KIND_LABELS: Record<string, string> = {
  REGRESSED_ISSUE: 'Regression',
  NEW_ISSUE: 'New issue',
  ISSUE_FREQUENCY: 'Frequent issue',
  USERS_AFFECTED: 'Users affected',
  NEW_RELEASE_ISSUE: 'Issue in a new release',
  ERROR_SPIKE: 'Error spike',
  LOG_MATCH: 'Log match',
  MONITOR_FAILED: 'Monitor failed',
};

export function kindLabel(kind: AlertPayload['kind']): string {
  return KIND_LABELS[kind] ?? 'Alert';
}

/** The headline: the issue's title, else the log line, else what happened to the project. */
export function alertTitle(payload: AlertPayload): string {
  const title =
    payload.issue?.title ||
    payload.issue?.type ||
    payload.log?.message ||
    (payload.window?.count !== undefined
      ? `${payload.window.count} ${windowNoun(payload)} in ${payload.window.minutes ?? '?'} min`
      : '') ||
    '(untitled issue)';
  return clip(String(title), TITLE_MAX);
}

/** What a counting window counted, in words: a spike counts the project's errors, not an issue's events. */
function windowNoun(payload: AlertPayload): string {
  return payload.kind === 'ERROR_SPIKE' ? 'errors' : (payload.window?.unit ?? 'events');
}

/** A value from the payload shown as text (numbers and strings only: anything else is not ours to print). */
function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value !== '') return value;
  return null;
}

/**
 * The facts every rendering shows, in order. The optional fields some kinds add (counts
 * since the last alert, the window and threshold of the counting kinds, the log line, the new
 * release, the query) are shown when present, so the channels need no change when a kind is added.
 */
export function alertFacts(payload: AlertPayload): [label: string, value: string][] {
  const facts: [string, string][] = [['Project', payload.project.name]];
  const push = (label: string, value: unknown) => {
    const v = text(value);
    if (v !== null) facts.push([label, v]);
  };
  if (payload.issue) {
    push('Events', payload.issue.eventCount);
    push('Users', payload.issue.userCount);
    push('Status', payload.issue.status);
  }
  if (typeof payload.eventsSinceLastAlert === 'number')
    push('Since last alert', `${payload.eventsSinceLastAlert} events`);
  const w = payload.window;
  if (w && typeof w.count === 'number') {
    const over = typeof w.threshold === 'number' ? ` (threshold ${w.threshold})` : '';
    push('In window', `${w.count} ${windowNoun(payload)} in ${w.minutes ?? '?'} min${over}`);
    push('Rate', typeof w.ratePerMinute === 'number' ? `${w.ratePerMinute}/min` : null);
  } else {
    push('Threshold', payload.threshold);
    push('Window', typeof payload.windowMinutes === 'number' ? `${payload.windowMinutes} min` : null);
  }
  if (payload.event) {
    push('Environment', payload.event.environment);
    facts.push(['Release', payload.event.release ?? '(none)']);
  } else if (payload.log) {
    push('Level', payload.log.level);
    push('Environment', payload.log.environment);
    push('Release', payload.log.release);
  }
  push('New release', payload.newRelease?.version);
  const monitor = (payload as { monitor?: { slug?: unknown; environment?: unknown; reason?: unknown } }).monitor;
  if (monitor) {
    push('Monitor', monitor.slug);
    push('Environment', monitor.environment);
    push('Why', monitor.reason);
  }
  push('Query', payload.query);
  if (payload.issue) {
    push('First seen', payload.issue.firstSeen);
    push('Last seen', payload.issue.lastSeen);
  }
  return facts;
}

export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export interface AlertLink {
  text: string;
  url: string;
}

/** What every channel says, worked out once; each channel only lays it out. */
export interface AlertMessage {
  /** `Regression`, `New issue`, …, prefixed `Test · ` for a test send and `Digest · ` for a digest. */
  label: string;
  title: string;
  project: string;
  culprit: string | null;
  /** The event's (or log line's) message. */
  detail: string | null;
  facts: [string, string][];
  /** The issue (or, for a test, the Alerts page); only http(s) URLs become links. */
  view: AlertLink | null;
  /** "Mute this rule" / "Mute this issue", when the payload carries the links. */
  mute: AlertLink[];
  /** A digest's alerts, by title, each with its link when it has one. */
  digest: { count: number; minutes: number | null; lines: Array<{ title: string; url: string | null }> } | null;
  footer: string;
  test: boolean;
}

export function describeAlert(payload: AlertPayload): AlertMessage {
  const test = payload.test === true;
  const digest = payload.digest && Array.isArray(payload.digest.items) ? payload.digest : null;
  let label = kindLabel(payload.kind);
  if (digest) label = `Digest · ${label}`;
  if (test) label = `Test · ${label}`;
  const view = isHttpUrl(payload.issue?.url)
    ? { text: test ? 'Open the Alerts page' : 'View issue', url: payload.issue!.url }
    : null;
  const mute: AlertLink[] = [];
  if (isHttpUrl(payload.links?.muteRule)) mute.push({ text: 'Mute this rule', url: payload.links!.muteRule! });
  if (isHttpUrl(payload.links?.muteIssue)) mute.push({ text: 'Mute this issue', url: payload.links!.muteIssue! });
  const detail = payload.event?.message || payload.log?.message || null;
  return {
    label,
    title: alertTitle(payload),
    project: clip(payload.project.name, 200),
    culprit: payload.issue?.culprit ? clip(payload.issue.culprit, 500) : null,
    detail: detail ? clip(detail, 2000) : null,
    facts: alertFacts(payload).map(([k, v]) => [k, clip(v, 500)]),
    view,
    mute,
    digest: digest
      ? {
          count: typeof digest.count === 'number' ? digest.count : digest.items!.length,
          minutes: typeof digest.minutes === 'number' ? digest.minutes : null,
          lines: digest.items!.slice(0, DIGEST_LINES_MAX).map((item) => ({
            title: alertTitle({ ...payload, digest: undefined, ...item } as AlertPayload),
            url: isHttpUrl(item.issue?.url) ? item.issue!.url : null,
          })),
        }
      : null,
    footer: test
      ? `Tracker · test notification for alert rule ${payload.ruleId} · no issue triggered it`
      : `Tracker · ${payload.issue?.type ?? payload.kind} · triggered ${payload.triggeredAt}`,
    test,
  };
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
