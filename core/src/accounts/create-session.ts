import type { EntityManager } from 'typeorm';
import { Session } from '../entities';
import { generateToken, hashToken } from '../security';

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
export const SESSION_PREFIX = 'ets_';

export interface CreatedSession {
  /** The secret, returned once; only its hash is stored. */
  token: string;
  sessionId: string;
}

export async function createSession(em: EntityManager, userId: string): Promise<CreatedSession> {
  const token = generateToken(SESSION_PREFIX);
  const session = await em.save(
    em.create(Session, { userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + SESSION_TTL_MS) }),
  );
  return { token, sessionId: session.id };
}

/** Revokes every live session of the user (password change); returns how many. */
export async function revokeAllSessions(em: EntityManager, userId: string): Promise<number> {
  const result = await em
    .createQueryBuilder()
    .update(Session)
    .set({ revokedAt: () => 'now()' })
    .where('user_id = :userId AND revoked_at IS NULL', { userId })
    .execute();
  return result.affected ?? 0;
}
