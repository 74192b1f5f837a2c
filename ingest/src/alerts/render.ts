import type { AlertPayload } from './types';

const TITLE_MAX = 200;

/** One line, no control characters, at most `max` characters. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function kindLabel(kind: AlertPayload['kind']): string {
  return kind === 'REGRESSED_ISSUE' ? 'Regression' : 'New issue';
}

export function alertTitle(payload: AlertPayload): string {
  return clip(payload.issue.title || payload.issue.type || '(untitled issue)', TITLE_MAX);
}

/** The facts every rendering shows, in order. */
export function alertFacts(payload: AlertPayload): [label: string, value: string][] {
  const facts: [string, string][] = [
    ['Project', payload.project.name],
    ['Events', String(payload.issue.eventCount)],
    ['Users', String(payload.issue.userCount)],
    ['Status', payload.issue.status],
  ];
  if (payload.event) {
    facts.push(['Environment', payload.event.environment]);
    facts.push(['Release', payload.event.release ?? '(none)']);
  }
  facts.push(['First seen', payload.issue.firstSeen]);
  facts.push(['Last seen', payload.issue.lastSeen]);
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
