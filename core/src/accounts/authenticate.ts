import type { DataSource } from 'typeorm';
import { Session, User } from '../entities';
import { hashToken } from '../security';

export interface Principal {
  user: User;
  sessionId: string;
}

/** The session behind a bearer token, or null when it is unknown, expired or revoked. */
export async function authenticate(ds: DataSource, token: string): Promise<Principal | null> {
  if (!token.startsWith('ets_')) return null;
  const session = await ds.manager.findOneBy(Session, { tokenHash: hashToken(token) });
  if (!session || session.revokedAt || session.expiresAt.getTime() <= Date.now()) return null;
  const user = await ds.manager.findOneBy(User, { id: session.userId });
  return user ? { user, sessionId: session.id } : null;
}

export async function logOut(ds: DataSource, sessionId: string): Promise<void> {
  await ds.manager.update(Session, { id: sessionId }, { revokedAt: new Date() });
}
