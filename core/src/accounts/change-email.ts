import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { User } from '../entities';
import { generateToken, hashToken, verifyPassword } from '../security';
import { normalizeEmail } from './normalize-email';

export const EMAIL_CHANGE_PREFIX = 'etc_';
/** How long the confirmation link in the email works. */
export const EMAIL_CHANGE_TTL_MS = 24 * 3600 * 1000;

export type EmailChangeRequest =
  /** Changed at once (no SMTP: nothing could prove the address; decision 053). */
  | { changed: true; user: User }
  /** Waits for the link sent to `newEmail`; `token` is its secret, for the email only. */
  | { changed: false; user: User; newEmail: string; token: string; expiresAt: Date };

async function requireFreeEmail(ds: DataSource, email: string, userId: string): Promise<void> {
  const taken = await queryRows<{ id: string }>(ds, 'SELECT id FROM users WHERE email = $1', [email]);
  if (taken.length > 0 && taken[0].id !== userId) {
    throw new AppError('CONFLICT', 'newEmail: an account with this email already exists');
  }
  if (taken.length > 0) throw new AppError('BAD_USER_INPUT', 'newEmail: this is already your email');
}

/**
 * Starts a change of the signed-in user's email. The current password is checked first (a
 * session left open on a shared computer must not be able to take the account over by moving
 * its email, from which a password reset would follow). With `confirmByEmail` (SMTP set) the
 * change waits for the link sent to the new address and replaces any pending one; without it the
 * email changes at once.
 */
export async function requestEmailChange(
  ds: DataSource,
  input: { userId: string; currentPassword: string; newEmail: string; confirmByEmail: boolean; now: Date },
): Promise<EmailChangeRequest> {
  const user = await ds.manager.findOneBy(User, { id: input.userId });
  if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in first');
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('BAD_USER_INPUT', 'currentPassword: wrong password');
  }
  let newEmail: string;
  try {
    newEmail = normalizeEmail(input.newEmail);
  } catch {
    throw new AppError('BAD_USER_INPUT', 'newEmail: must be a valid email address');
  }
  await requireFreeEmail(ds, newEmail, user.id);
  if (!input.confirmByEmail) {
    await setEmail(ds, user.id, newEmail);
    return { changed: true, user: Object.assign(user, { email: newEmail }) };
  }
  const token = generateToken(EMAIL_CHANGE_PREFIX);
  const expiresAt = new Date(input.now.getTime() + EMAIL_CHANGE_TTL_MS);
  await queryRows(
    ds,
    `INSERT INTO email_changes (user_id, new_email, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id) DO UPDATE SET new_email = excluded.new_email, token_hash = excluded.token_hash,
       created_at = excluded.created_at, expires_at = excluded.expires_at RETURNING id`,
    [user.id, newEmail, hashToken(token), input.now, expiresAt],
  );
  return { changed: false, user, newEmail, token, expiresAt };
}

/** Withdraws the user's pending change (the email could not be sent, or they asked). */
export async function cancelEmailChange(ds: DataSource, userId: string): Promise<void> {
  await queryRows(ds, 'DELETE FROM email_changes WHERE user_id = $1 RETURNING id', [userId]);
}

/** The address a pending change waits to confirm, or null. */
export async function findPendingEmail(ds: DataSource, userId: string, now: Date): Promise<string | null> {
  const rows = await queryRows<{ new_email: string }>(
    ds,
    'SELECT new_email FROM email_changes WHERE user_id = $1 AND expires_at > $2',
    [userId, now],
  );
  return rows[0]?.new_email ?? null;
}

/**
 * Completes a change from the link in the email: receiving it proves the address. Single use;
 * NOT_FOUND for an unknown or replaced link, FORBIDDEN once expired, CONFLICT when another
 * account took the address meanwhile. Needs no sign-in: the token is the capability.
 */
export async function confirmEmailChange(ds: DataSource, token: string, now: Date): Promise<User> {
  return ds.transaction(async (em) => {
    const rows = await queryRows<{ user_id: string; new_email: string; expires_at: Date }>(
      em,
      'SELECT user_id, new_email, expires_at FROM email_changes WHERE token_hash = $1 FOR UPDATE',
      [hashToken(token)],
    );
    const row = rows[0];
    if (!row) throw new AppError('NOT_FOUND', 'This confirmation link is unknown, replaced by a newer one, or used');
    if (new Date(row.expires_at).getTime() <= now.getTime()) {
      throw new AppError('FORBIDDEN', 'This confirmation link has expired: change the email again');
    }
    const taken = await queryRows<{ id: string }>(em, 'SELECT id FROM users WHERE email = $1', [row.new_email]);
    if (taken.length > 0 && taken[0].id !== row.user_id) {
      throw new AppError('CONFLICT', 'Another account uses this email now');
    }
    await updateEmail(em, row.user_id, row.new_email);
    await queryRows(em, 'DELETE FROM email_changes WHERE user_id = $1 RETURNING id', [row.user_id]);
    const user = await em.findOneBy(User, { id: row.user_id });
    if (!user) throw new AppError('NOT_FOUND', 'This confirmation link is unknown, replaced by a newer one, or used');
    return user;
  });
}

/** The unique index decides a race between two accounts taking one address: the loser gets CONFLICT. */
async function updateEmail(on: DataSource | EntityManager, userId: string, email: string): Promise<void> {
  try {
    await queryRows(on, 'UPDATE users SET email = $1 WHERE id = $2 RETURNING id', [email, userId]);
  } catch (err) {
    if ((err as { code?: string }).code === '23505')
      throw new AppError('CONFLICT', 'Another account uses this email now');
    throw err;
  }
}

async function setEmail(ds: DataSource, userId: string, email: string): Promise<void> {
  await updateEmail(ds, userId, email);
  await queryRows(ds, 'DELETE FROM email_changes WHERE user_id = $1 RETURNING id', [userId]);
}
