import type { DataSource } from 'typeorm';
import { isUuid } from '../access/is-uuid';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';

/** A signed-in session as its user sees it in the list (never the token or its hash). */
export interface SessionSummary {
  id: string;
  createdAt: Date;
  expiresAt: Date;
}

/** The user's live sessions (neither signed out nor expired), newest first. */
export async function listSessions(ds: DataSource, userId: string, now: Date): Promise<SessionSummary[]> {
  const rows = await queryRows<{ id: string; created_at: Date; expires_at: Date }>(
    ds,
    `SELECT id, created_at, expires_at FROM sessions
      WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
      ORDER BY created_at DESC, id DESC LIMIT 500`,
    [userId, now],
  );
  return rows.map((r) => ({ id: r.id, createdAt: new Date(r.created_at), expiresAt: new Date(r.expires_at) }));
}

/**
 * Signs out one of the user's sessions. Another user's session answers NOT_FOUND like a missing
 * one; a session already signed out is left as it was.
 */
export async function revokeSession(ds: DataSource, userId: string, sessionId: string): Promise<void> {
  const rows = isUuid(sessionId)
    ? await queryRows<{ id: string }>(ds, 'SELECT id FROM sessions WHERE id = $1 AND user_id = $2', [sessionId, userId])
    : [];
  if (rows.length === 0) throw new AppError('NOT_FOUND', 'Session not found');
  await queryRows(ds, 'UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id', [
    sessionId,
  ]);
}

/** "Sign out everywhere else": every live session of the user but `keepSessionId`; returns how many. */
export async function revokeOtherSessions(ds: DataSource, userId: string, keepSessionId: string): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    ds,
    'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL RETURNING id',
    [userId, keepSessionId],
  );
  return rows.length;
}
