import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { hashPassword, verifyPassword } from '../../security';

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** 10 base32 characters (50 bits), shown as `xxxxx-xxxxx`. */
function newRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/**
 * Replaces the user's recovery codes with 10 new ones, stored as argon2id hashes (like
 * passwords: a copy of the table does not hand them out); answers the codes, shown once.
 */
export async function replaceRecoveryCodes(em: EntityManager, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = await Promise.all(codes.map((c) => hashPassword(c.replace('-', ''))));
  await em.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  for (const h of hashes)
    await em.query('INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)', [userId, h]);
  return codes;
}

/**
 * Spends a recovery code (`compact`: lower case, no dash): true when it matched an unused one,
 * which is then used up. The row is locked, so a code raced from two requests works once.
 */
export async function useRecoveryCode(em: EntityManager, userId: string, compact: string, now: Date): Promise<boolean> {
  const rows = (await em.query('SELECT id, code_hash FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL', [
    userId,
  ])) as { id: string; code_hash: string }[];
  for (const row of rows) {
    if (!(await verifyPassword(row.code_hash, compact))) continue;
    const r = (await em.query(
      'WITH u AS (UPDATE recovery_codes SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id) SELECT id FROM u',
      [row.id, now],
    )) as unknown[];
    return r.length > 0;
  }
  return false;
}

/** Unused codes left. */
export async function recoveryCodesLeft(em: EntityManager, userId: string): Promise<number> {
  const [r] = (await em.query('SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL', [
    userId,
  ])) as { n: number }[];
  return Number(r.n);
}
