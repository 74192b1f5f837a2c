import type { AlertPayload } from './types';

const TITLE_MAX = 200;

/** One line, no control characters, at most `max` characters. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const KIND_LABELS: Record<AlertPayload['kind'], string> = {
  REGRESSED_ISSUE: 'Regression',
  NEW_ISSUE: 'New issue',
  ISSUE_FREQUENCY: 'Frequent issue',
  USERS_AFFECTED: 'Users affected',
  NEW_RELEASE_ISSUE: 'Issue in a new release',
  ERROR_SPIKE: 'Error spike',
  LOG_MATCH: 'Log match',
};

export function kindLabel(kind: AlertPayload['kind']): string {
  return KIND_LABELS[kind] ?? kind;
}

export function alertTitle(payload: AlertPayload): string {
  if (!payload.issue) {
    // The project-wide kinds have no issue: the log line, or the rate.
    const text = payload.log
      ? payload.log.message
      : payload.window
        ? `${payload.window.count} errors in ${payload.window.minutes} min`
        : payload.project.name;
    return clip(text || '(empty)', TITLE_MAX);
  }
  return clip(payload.issue.title || payload.issue.type || '(untitled issue)', TITLE_MAX);
}

/** The facts every rendering shows, in order. */
export function alertFacts(payload: AlertPayload): [label: string, value: string][] {
  const facts: [string, string][] = [['Project', payload.project.name]];
  if (payload.issue) {
    facts.push(['Events', String(payload.issue.eventCount)]);
    facts.push(['Users', String(payload.issue.userCount)]);
    facts.push(['Status', payload.issue.status]);
  }
  const where = payload.event ?? payload.log;
  if (where) {
    facts.push(['Environment', where.environment]);
    facts.push(['Release', where.release ?? '(none)']);
  }
  if (payload.issue) {
    facts.push(['First seen', payload.issue.firstSeen]);
    facts.push(['Last seen', payload.issue.lastSeen]);
  }
  return facts;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
