import type { DataSource } from 'typeorm';
import { recordAuditForMemberOrganizations } from '../audit/record-audit';
import type { RequestOrigin } from '../access/caller';
import { selfSource } from './record-sign-in';
import { AppError } from '../errors';
import { User } from '../entities';
import { generateToken, hashPassword, hashToken } from '../security';
import { revokeAllSessions } from './create-session';
import { checkNewPassword } from './new-password';
import { normalizeEmail } from './normalize-email';

export const RESET_PREFIX = 'etr_';
export const RESET_TTL_MS = 3600_000;

/** The dashboard page a reset link opens. */
export function passwordResetLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/reset-password/${encodeURIComponent(token)}`;
}

export interface ResetRequest {
  user: User;
  token: string;
  expiresAt: Date;
}

/**
 * A reset token for the account of `email`, valid one hour; a newer request withdraws older ones.
 * Answers null when no account has that email: the caller must answer exactly as it does
 * otherwise. `byEmail`: the link goes to the address (using it then proves the address), not to
 * an operator (`user:reset-password`).
 */
export async function requestPasswordReset(
  ds: DataSource,
  rawEmail: string,
  now: number,
  byEmail: boolean,
): Promise<ResetRequest | null> {
  const email = normalizeEmail(rawEmail);
  const user = await ds.manager.findOneBy(User, { email });
  if (!user) return null;
  const token = generateToken(RESET_PREFIX);
  const expiresAt = new Date(now + RESET_TTL_MS);
  await ds.transaction(async (em) => {
    await em.query(
      'UPDATE password_reset_tokens SET revoked_at = $2 WHERE user_id = $1 AND used_at IS NULL AND revoked_at IS NULL',
      [user.id, new Date(now)],
    );
    await em.query(
      `INSERT INTO password_reset_tokens (user_id, token_hash, created_at, expires_at, by_email) VALUES ($1, $2, $3, $4, $5)`,
      [user.id, hashToken(token), new Date(now), expiresAt, byEmail],
    );
  });
  return { user, token, expiresAt };
}

const INVALID = 'This reset link is no longer valid (used, replaced by a newer one, or expired): ask for a new one';

/** Whether a reset link can still be used (the page checks before asking for a password). */
export async function checkPasswordResetToken(ds: DataSource, token: string, now: number): Promise<{ email: string }> {
  if (typeof token !== 'string' || !token.startsWith(RESET_PREFIX) || token.length > 200) {
    throw new AppError('NOT_FOUND', INVALID);
  }
  const [row] = (await ds.query(
    `SELECT u.email FROM password_reset_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = $1 AND t.used_at IS NULL AND t.revoked_at IS NULL AND t.expires_at > $2`,
    [hashToken(token), new Date(now)],
  )) as { email: string }[];
  if (!row) throw new AppError('NOT_FOUND', INVALID);
  return { email: row.email };
}

export interface ResetResult {
  user: User;
  revokedSessions: number;
  /** The account was unverified and the link came by email: its address is now confirmed. */
  tookOver: boolean;
}

/**
 * Sets a new password with a reset token, spends the token and ends **every** session of the
 * account, in one transaction. A link that came by email proves the address: an unverified
 * account becomes verified, and since whoever created it may not be the address's owner (an
 * invitation link handed to the inviter, a sign-up with someone else's email), the take-over also
 * revokes its API tokens, pending tokens of other resets and turns off a two-factor set up by
 * that person.
 */
export async function resetPassword(
  ds: DataSource,
  token: string,
  newPassword: string,
  now: number,
  origin?: RequestOrigin,
): Promise<ResetResult> {
  checkNewPassword('newPassword', newPassword);
  if (typeof token !== 'string' || !token.startsWith(RESET_PREFIX) || token.length > 200) {
    throw new AppError('NOT_FOUND', INVALID);
  }
  // A cheap look first: a guessed token costs no argon2 hash (the transaction checks again).
  await checkPasswordResetToken(ds, token, now);
  const passwordHash = await hashPassword(newPassword);
  return ds.transaction(async (em) => {
    const [row] = (await em.query(
      `WITH u AS (UPDATE password_reset_tokens SET used_at = $2
                   WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2
                   RETURNING user_id, by_email)
       SELECT user_id, by_email FROM u`,
      [hashToken(token), new Date(now)],
    )) as { user_id: string; by_email: boolean }[];
    if (!row) throw new AppError('NOT_FOUND', INVALID);
    const user = await em.findOneByOrFail(User, { id: row.user_id });
    const tookOver = row.by_email && !user.emailVerifiedAt;
    const changes: Partial<User> = { passwordHash };
    if (row.by_email && !user.emailVerifiedAt) changes.emailVerifiedAt = new Date(now);
    if (tookOver)
      Object.assign(changes, { totpSecret: null, totpEnabledAt: null, totpLastStep: null, totpPendingSecret: null });
    await em.update(User, { id: user.id }, changes);
    if (tookOver) {
      await em.query('DELETE FROM recovery_codes WHERE user_id = $1', [user.id]);
      await em.query('UPDATE api_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [user.id]);
    }
    await em.query(
      'UPDATE password_reset_tokens SET revoked_at = $2 WHERE user_id = $1 AND used_at IS NULL AND revoked_at IS NULL',
      [user.id, new Date(now)],
    );
    const revokedSessions = await revokeAllSessions(em, user.id);
    await recordAuditForMemberOrganizations(em, user.id, {
      ...selfSource(user.id, origin),
      action: 'auth.password_reset',
      target: { type: 'user', id: user.id, label: user.email },
      changes: { after: { byEmail: row.by_email, tookOver, revokedSessions } },
    });
    return { user: Object.assign(user, changes), revokedSessions, tookOver };
  });
}
