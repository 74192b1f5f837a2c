import type { EntityManager } from 'typeorm';
import type { Caller } from '../access/caller';
import { queryRows } from '../db/query-rows';
import { isAuditAction, type AuditAction, type AuditTargetType } from './audit-actions';
import { safeChanges, type AuditChanges } from './audit-changes';

/**
 * Who did it: a person (through a session, or through one of their API tokens), or the system
 * on someone's behalf (`stripe` for a webhook, `operator` for the command line).
 */
export type AuditActor =
  { type: 'user'; userId: string; apiTokenId?: string | null } | { type: 'system'; name: string };

/** One audit row as the code that makes the change describes it. */
export interface AuditEntry {
  organizationId: string;
  actor: AuditActor;
  action: AuditAction;
  /** What was changed; `label` is a human name kept as it was then (an email, a project's name). */
  target: { type: AuditTargetType; id: string | null; label?: string | null };
  /** A before/after summary; secrets are redacted by key (audit-changes.ts). */
  changes?: AuditChanges;
  clientAddress?: string | null;
  userAgent?: string | null;
}

/** Longest user agent kept: enough to recognise a browser or a client library. */
export const MAX_AUDIT_USER_AGENT_CHARS = 300;

/** The actor and request details of an audit row, from the caller of a core function. */
export function auditSourceOf(caller: Caller): Pick<AuditEntry, 'actor' | 'clientAddress' | 'userAgent'> {
  return {
    actor: { type: 'user', userId: caller.userId, apiTokenId: caller.apiTokenId ?? null },
    clientAddress: caller.origin?.clientAddress ?? null,
    userAgent: caller.origin?.userAgent ?? null,
  };
}

/**
 * Writes one audit row on `em`, the manager of the transaction that makes the change: the row
 * commits with the change or not at all, and a row that cannot be written (a constraint, the
 * database going away) rolls the change back. Called without an open transaction it throws, so
 * a change can never be committed first and recorded after. No access check: the caller has
 * already checked the change it records.
 */
export async function recordAudit(em: EntityManager, entry: AuditEntry): Promise<void> {
  await insertAudit(em, entry, { organizationId: entry.organizationId });
}

/**
 * `recordAudit` once for every organization `userId` is a member of (in one statement): for
 * what concerns a person rather than one organization, such as a sign-in or a personal API token.
 */
export async function recordAuditForMemberOrganizations(
  em: EntityManager,
  userId: string,
  entry: Omit<AuditEntry, 'organizationId'>,
): Promise<void> {
  await insertAudit(em, entry, { memberUserId: userId });
}

async function insertAudit(
  em: EntityManager,
  entry: Omit<AuditEntry, 'organizationId'>,
  where: { organizationId: string } | { memberUserId: string },
): Promise<void> {
  if (!em.queryRunner?.isTransactionActive) {
    throw new Error('recordAudit needs the EntityManager of the transaction that makes the change');
  }
  if (!isAuditAction(entry.action)) throw new Error(`Unknown audit action ${JSON.stringify(entry.action)}`);
  const { actor } = entry;
  const actorType = actor.type === 'system' ? 'system' : actor.apiTokenId ? 'api_token' : 'user';
  const userId = actor.type === 'user' ? actor.userId : null;
  const tokenId = actor.type === 'user' ? (actor.apiTokenId ?? null) : null;
  const systemName = actor.type === 'system' ? actor.name : null;
  const changes = safeChanges(entry.changes);
  const params = [
    actorType,
    userId,
    tokenId,
    systemName,
    entry.action,
    entry.target.type,
    entry.target.id,
    entry.target.label ?? null,
    changes === null ? null : JSON.stringify(changes),
    entry.clientAddress?.slice(0, 64) ?? null,
    entry.userAgent?.slice(0, MAX_AUDIT_USER_AGENT_CHARS) ?? null,
  ];
  // The actor's email is copied as it is now: the row must still say who it was after the
  // person changes address or their account goes.
  const select = `SELECT $1, $2::uuid, $3::uuid,
            COALESCE((SELECT email FROM users WHERE id = $2::uuid), $4, 'unknown'),
            $5, $6, $7, $8, $9::jsonb, $10, $11`;
  const columns = `(organization_id, actor_type, actor_user_id, actor_api_token_id, actor_label, action,
                    target_type, target_id, target_label, changes, client_address, user_agent)`;
  if ('organizationId' in where) {
    await queryRows(em, `INSERT INTO audit_log ${columns} SELECT $12::uuid, s.* FROM (${select}) s RETURNING id`, [
      ...params,
      where.organizationId,
    ]);
  } else {
    await queryRows(
      em,
      `INSERT INTO audit_log ${columns}
       SELECT m.organization_id, s.* FROM (${select}) s, memberships m WHERE m.user_id = $12::uuid RETURNING id`,
      [...params, where.memberUserId],
    );
  }
}
