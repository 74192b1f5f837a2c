import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { ApiToken, User, type Organization } from '../entities';
import { hashPassword, verifyPassword } from '../security';
import { createSession, revokeAllSessions, type CreatedSession } from './create-session';
import { firstOrganization } from './first-organization';
import { checkNewPassword } from './new-password';

export interface ChangePasswordInput {
  userId: string;
  currentPassword: string;
  newPassword: string;
  /** Also revoke every API token of the user (default: tokens keep working). */
  revokeApiTokens?: boolean;
}

export interface ChangePasswordResult extends CreatedSession {
  user: User;
  organization: Organization | null;
  /** Sessions signed out by the change, the caller's own included. */
  revokedSessions: number;
  revokedApiTokens: number;
}

/**
 * Checks the current password, stores the new one (argon2id) and signs out **every** session of
 * the user, the one making the request included, then opens a fresh session for the caller.
 * A session token that leaked before the change (the usual reason to change a password) is
 * dead afterwards; the dashboard swaps its cookie for the returned token. One transaction: the
 * new hash and the revocations land together.
 */
export async function changePassword(ds: DataSource, input: ChangePasswordInput): Promise<ChangePasswordResult> {
  const user = await ds.manager.findOneBy(User, { id: input.userId });
  if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in first');
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('BAD_USER_INPUT', 'currentPassword: wrong password');
  }
  checkNewPassword('newPassword', input.newPassword);
  if (input.newPassword === input.currentPassword) {
    throw new AppError('BAD_USER_INPUT', 'newPassword: must differ from the current password');
  }
  const passwordHash = await hashPassword(input.newPassword);
  return ds.transaction(async (em) => {
    // Compare-and-set on the hash we verified: two concurrent changes cannot both win.
    const updated = await em
      .createQueryBuilder()
      .update(User)
      .set({ passwordHash })
      .where('id = :id AND password_hash = :old', { id: user.id, old: user.passwordHash })
      .execute();
    if (!updated.affected) throw new AppError('CONFLICT', 'The password was changed meanwhile: sign in again');
    const revokedSessions = await revokeAllSessions(em, user.id);
    let revokedApiTokens = 0;
    if (input.revokeApiTokens) {
      const r = await em
        .createQueryBuilder()
        .update(ApiToken)
        .set({ revokedAt: () => 'now()' })
        .where('user_id = :userId AND revoked_at IS NULL', { userId: user.id })
        .execute();
      revokedApiTokens = r.affected ?? 0;
    }
    const session = await createSession(em, user.id);
    const organization = await firstOrganization(em, user.id);
    return { user: Object.assign(user, { passwordHash }), organization, revokedSessions, revokedApiTokens, ...session };
  });
}
