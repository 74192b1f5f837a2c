import type { DataSource } from 'typeorm';
import { AppError } from '../../errors';
import { User } from '../../entities';
import { generateToken, hashToken } from '../../security';
import { createSession, type CreatedSession } from '../create-session';
import { firstOrganization } from '../first-organization';
import type { LogInResult } from '../log-in';
import { recordSignIn } from '../record-sign-in';
import type { RequestOrigin } from '../../access/caller';
import { checkPasswordSignIn } from '../../sso/password-sign-in';
import { checkSecondFactor } from './two-factor';

export const CHALLENGE_PREFIX = 'etf_';
/** Time between a right password and the code. */
export const CHALLENGE_TTL_MS = 10 * 60_000;

/** After a right password, for an account with two-factor on: a token that stands for "password passed". */
export async function createSignInChallenge(ds: DataSource, userId: string, now: number): Promise<string> {
  const token = generateToken(CHALLENGE_PREFIX);
  await ds.query('INSERT INTO sign_in_challenges (user_id, token_hash, expires_at) VALUES ($1, $2, $3)', [
    userId,
    hashToken(token),
    new Date(now + CHALLENGE_TTL_MS),
  ]);
  return token;
}

/** The account a live challenge is for; UNAUTHENTICATED when it is unknown, used or expired. */
export async function readSignInChallenge(
  ds: DataSource,
  token: string,
  now: number,
): Promise<{ id: string; user: User }> {
  const again = 'This sign-in has expired or was already completed: enter your password again';
  if (typeof token !== 'string' || !token.startsWith(CHALLENGE_PREFIX) || token.length > 200) {
    throw new AppError('UNAUTHENTICATED', again);
  }
  const [row] = (await ds.query(
    'SELECT id, user_id, expires_at, used_at FROM sign_in_challenges WHERE token_hash = $1',
    [hashToken(token)],
  )) as { id: string; user_id: string; expires_at: Date; used_at: Date | null }[];
  if (!row || row.used_at || row.expires_at.getTime() <= now) throw new AppError('UNAUTHENTICATED', again);
  const user = await ds.manager.findOneBy(User, { id: row.user_id });
  if (!user) throw new AppError('UNAUTHENTICATED', again);
  return { id: row.id, user };
}

/**
 * The second step: a right code (or recovery code) spends the challenge and opens a session, in
 * one transaction; a wrong one answers null and leaves the challenge for another try (the
 * throttle counts the failures).
 */
export async function completeTwoFactorSignIn(
  ds: DataSource,
  challenge: { id: string; user: User },
  rawCode: string,
  now: number,
  origin?: RequestOrigin,
): Promise<(LogInResult & CreatedSession & { usedRecoveryCode: boolean }) | null> {
  // Checked again: an organization may have started requiring SSO since the password step.
  const { breakGlass } = await checkPasswordSignIn(ds, challenge.user.id);
  return ds
    .transaction(async (em) => {
      const spent = (await em.query(
        'WITH u AS (UPDATE sign_in_challenges SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id) SELECT id FROM u',
        [challenge.id, new Date(now)],
      )) as unknown[];
      if (spent.length === 0) {
        throw new AppError('UNAUTHENTICATED', 'This sign-in was already completed: enter your password again');
      }
      const user = await em.findOneByOrFail(User, { id: challenge.user.id });
      const { ok, kind } = await checkSecondFactor(em, user, rawCode, now);
      if (!ok) throw new WrongSecondFactor();
      const organization = await firstOrganization(em, user.id);
      const session = await createSession(em, user.id);
      await recordSignIn(em, user, 'password+two-factor', breakGlass, origin);
      return { user, organization, breakGlass, ...session, usedRecoveryCode: kind === 'recovery' };
    })
    .catch((err: unknown) => {
      // The transaction rolled back: the challenge is not spent and can be tried again.
      if (err instanceof WrongSecondFactor) return null;
      throw err;
    });
}

class WrongSecondFactor extends Error {}
