import type { AuditLogQuery } from '../../graphql/graphql';

type Entry = AuditLogQuery['auditLog']['nodes'][number];

/** The most rows one export holds: a year of a busy organization's changes, in 200-row pages. */
export const MAX_CSV_ROWS = 20_000;

export const CSV_COLUMNS = [
  'time',
  'action',
  'actor_type',
  'actor',
  'actor_user_id',
  'api_token',
  'target_type',
  'target_id',
  'target',
  'changes',
  'client_address',
  'user_agent',
] as const;

/**
 * One CSV cell (RFC 4180 quoting). A cell a spreadsheet would run as a formula (`=`, `+`, `-`,
 * `@`, tab, CR) gets a leading `'`: an actor's email or a project's name is someone's input.
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(e: Entry): string {
  const token = e.actor.apiTokenId
    ? `${e.actor.apiTokenName ?? ''} ${e.actor.apiTokenPrefix ?? ''}`.trim() || e.actor.apiTokenId
    : '';
  return [
    e.time,
    e.action,
    e.actor.type,
    e.actor.label,
    e.actor.userId,
    token,
    e.target.type,
    e.target.id,
    e.target.label,
    e.changes ? JSON.stringify(e.changes) : '',
    e.clientAddress,
    e.userAgent,
  ]
    .map(csvCell)
    .join(',');
}

export function csvHeader(): string {
  return CSV_COLUMNS.join(',');
}
