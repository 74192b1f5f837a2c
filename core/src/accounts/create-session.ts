import type { EntityManager } from 'typeorm';
import { Session } from '../entities';
import { generateToken, hashToken } from '../security';

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

export interface CreatedSession {
  /** The secret, returned once; only its hash is stored. */
  token: string;
  sessionId: string;
}

export async function createSession(em: EntityManager, userId: string): Promise<CreatedSession> {
  const token = generateToken('ets_');
  const session = await em.save(
    em.create(Session, { userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + SESSION_TTL_MS) }),
  );
  return { token, sessionId: session.id };
}
