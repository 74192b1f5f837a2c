import { AUDIT_ACTION_LABELS } from './audit-actions';

/** The page's filters as the URL holds them (a GET form: the URL is the state). */
export interface AuditParams {
  actor: string;
  action: string;
  /** `YYYY-MM-DD` (UTC) or empty. */
  since: string;
  after: string | null;
}

export const MAX_ACTOR_CHARS = 320;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the filters; anything malformed is dropped rather than sent on (the API would refuse it). */
export function readAuditParams(url: URL): AuditParams {
  const actor = (url.searchParams.get('actor') ?? '').trim().slice(0, MAX_ACTOR_CHARS);
  const action = url.searchParams.get('action') ?? '';
  const since = url.searchParams.get('since') ?? '';
  const after = url.searchParams.get('after');
  return {
    actor,
    action: action in AUDIT_ACTION_LABELS ? action : '',
    since: DATE.test(since) && !Number.isNaN(Date.parse(`${since}T00:00:00Z`)) ? since : '',
    after: after && /^\d{1,18}$/.test(after) ? after : null,
  };
}

/** The API's filter for these params. */
export function auditFilterOf(p: AuditParams): { actor?: string; action?: string; since?: string } {
  return {
    ...(p.actor ? { actor: p.actor } : {}),
    ...(p.action ? { action: p.action } : {}),
    ...(p.since ? { since: `${p.since}T00:00:00.000Z` } : {}),
  };
}

/** The query string of these filters (and a page cursor), for links and the CSV export. */
export function auditSearch(p: AuditParams, after: string | null = null): string {
  const q = new URLSearchParams();
  if (p.actor) q.set('actor', p.actor);
  if (p.action) q.set('action', p.action);
  if (p.since) q.set('since', p.since);
  if (after) q.set('after', after);
  const s = q.toString();
  return s ? `?${s}` : '';
}
