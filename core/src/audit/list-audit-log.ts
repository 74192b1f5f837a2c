import type { DataSource } from 'typeorm';
import { requireOrganizationAccess, type Caller } from '../access';
import { isUuid } from '../access/is-uuid';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { isAuditAction, type AuditAction, type AuditTargetType } from './audit-actions';
import type { AuditChanges } from './audit-changes';

export interface AuditLogEntry {
  id: string;
  at: Date;
  action: AuditAction;
  actorType: 'user' | 'api_token' | 'system';
  actorUserId: string | null;
  actorApiTokenId: string | null;
  /** The API token's name and prefix when one was used (null when it has since been deleted). */
  actorApiTokenName: string | null;
  actorApiTokenPrefix: string | null;
  /** The person's email then, or the system's name (`stripe`, `operator`). */
  actorLabel: string;
  targetType: AuditTargetType;
  targetId: string | null;
  targetLabel: string | null;
  changes: AuditChanges | null;
  clientAddress: string | null;
  userAgent: string | null;
}

export interface AuditLogFilter {
  /** A user's or API token's id, or an email / system name (exact, any case). */
  actor?: string | null;
  action?: string | null;
  since?: Date | null;
}

export interface AuditLogPage {
  entries: AuditLogEntry[];
  hasNextPage: boolean;
}

/** Largest page. */
export const MAX_AUDIT_PAGE = 200;

interface Row {
  id: string;
  created_at: Date;
  action: AuditAction;
  actor_type: AuditLogEntry['actorType'];
  actor_user_id: string | null;
  actor_api_token_id: string | null;
  token_name: string | null;
  token_prefix: string | null;
  actor_label: string;
  target_type: AuditTargetType;
  target_id: string | null;
  target_label: string | null;
  changes: AuditChanges | string | null;
  client_address: string | null;
  user_agent: string | null;
}

/** A cursor is the last row's id (rows are numbered in the order they were written). */
export function parseAuditCursor(after: string | null | undefined): string | null {
  if (after === null || after === undefined || after === '') return null;
  if (!/^[1-9]\d{0,17}$/.test(after)) throw new AppError('BAD_USER_INPUT', 'after: not a cursor of this list');
  return after;
}

/**
 * An organization's audit log, newest first, `first` rows after the cursor `after` (keyset
 * pagination: a page costs the same on the first day and after a year). Owners only; an API
 * token needs the `admin` scope, as for the changes it lists.
 */
export async function listAuditLog(
  ds: DataSource,
  caller: Caller,
  organizationId: string,
  options: { first: number; after?: string | null; filter?: AuditLogFilter },
): Promise<AuditLogPage> {
  if (!Number.isInteger(options.first) || options.first < 1 || options.first > MAX_AUDIT_PAGE) {
    throw new AppError('BAD_USER_INPUT', `first: must be 1 to ${MAX_AUDIT_PAGE}`);
  }
  const after = parseAuditCursor(options.after);
  const filter = options.filter ?? {};
  const action = filter.action?.trim() || null;
  if (action !== null && !isAuditAction(action)) {
    throw new AppError('BAD_USER_INPUT', `filter.action: unknown action ${JSON.stringify(action.slice(0, 60))}`);
  }
  const actor = filter.actor?.trim() || null;
  if (actor !== null && actor.length > 320) throw new AppError('BAD_USER_INPUT', 'filter.actor: too long');
  const since = filter.since ?? null;
  if (since !== null && Number.isNaN(since.getTime())) throw new AppError('BAD_USER_INPUT', 'filter.since: not a time');
  await requireOrganizationAccess(
    ds,
    caller,
    organizationId,
    { roles: ['owner'], scope: 'admin' },
    'read the audit log',
  );

  const params: unknown[] = [organizationId];
  const conditions = ['a.organization_id = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (after !== null) add((p) => `a.id < ${p}::bigint`, after);
  if (action !== null) add((p) => `a.action = ${p}`, action);
  if (since !== null) add((p) => `a.created_at >= ${p}::timestamptz`, since.toISOString());
  if (actor !== null) {
    if (isUuid(actor)) add((p) => `(a.actor_user_id = ${p}::uuid OR a.actor_api_token_id = ${p}::uuid)`, actor);
    else add((p) => `lower(a.actor_label) = lower(${p})`, actor);
  }
  params.push(options.first + 1);
  const rows = await queryRows<Row>(
    ds,
    `SELECT a.id::text AS id, a.created_at, a.action, a.actor_type, a.actor_user_id, a.actor_api_token_id,
            t.name AS token_name, t.token_prefix, a.actor_label, a.target_type, a.target_id, a.target_label,
            a.changes, a.client_address, a.user_agent
       FROM audit_log a LEFT JOIN api_tokens t ON t.id = a.actor_api_token_id
      WHERE ${conditions.join(' AND ')}
      ORDER BY a.id DESC
      LIMIT $${params.length}`,
    params,
  );
  return { entries: rows.slice(0, options.first).map(toEntry), hasNextPage: rows.length > options.first };
}

function toEntry(r: Row): AuditLogEntry {
  return {
    id: String(r.id),
    at: new Date(r.created_at),
    action: r.action,
    actorType: r.actor_type,
    actorUserId: r.actor_user_id,
    actorApiTokenId: r.actor_api_token_id,
    actorApiTokenName: r.token_name,
    actorApiTokenPrefix: r.token_prefix,
    actorLabel: r.actor_label,
    targetType: r.target_type,
    targetId: r.target_id,
    targetLabel: r.target_label,
    changes: typeof r.changes === 'string' ? (JSON.parse(r.changes) as AuditChanges) : r.changes,
    clientAddress: r.client_address,
    userAgent: r.user_agent,
  };
}
