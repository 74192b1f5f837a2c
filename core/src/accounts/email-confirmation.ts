import type { DataSource, EntityManager } from 'typeorm';
import { isFirstAccount } from '../access/instance-admin';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { Organization, User, type PlanId } from '../entities';
import { generateToken, hashPassword, hashToken } from '../security';
import { checkSignUpInput, createOwnedOrganization, requireSignUpOpen, type SignUpInput } from './sign-up';

export const EMAIL_CONFIRMATION_PREFIX = 'etv_';
/** How long a confirmation link works: a day, as the link of an email change (decision 066). */
export const EMAIL_CONFIRMATION_TTL_MS = 24 * 3600 * 1000;

/** The dashboard page a confirmation link opens. */
export function emailConfirmationLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/verify-email/${encodeURIComponent(token)}`;
}

export type SignUpRequest =
  /** A new, unverified account; `token` goes in the confirmation email only. */
  | { kind: 'created'; user: User; token: string; expiresAt: Date }
  /** The address has an account: nothing changed; the email tells its owner so. */
  | { kind: 'registered'; user: User };

/**
 * The sign-up of an installation that sends email (decision 066). A new address gets an
 * unverified account (it can sign in, but belongs to no organization) and a confirmation link;
 * the organization named here is created when the link is used. An address with an account
 * changes nothing. Both do the same work up to the last insert (the argon2 hash included), and
 * the caller sends either email after answering, so neither the answer nor its time tells them apart.
 */
export async function requestSignUp(
  ds: DataSource,
  input: SignUpInput,
  now: number,
  options: { closed?: boolean } = {},
): Promise<SignUpRequest> {
  const { email, organizationName } = checkSignUpInput(input);
  const passwordHash = await hashPassword(input.password);
  return ds.transaction(async (em) => {
    await requireSignUpOpen(em, options.closed === true);
    const taken = await em.findOneBy(User, { email });
    if (taken) return { kind: 'registered', user: taken };
    const isAdmin = await isFirstAccount(em);
    const user = await em.save(em.create(User, { email, passwordHash, isAdmin }));
    const { token, expiresAt } = await createConfirmation(em, user.id, organizationName, now);
    return { kind: 'created', user, token, expiresAt };
  });
}

async function createConfirmation(
  em: EntityManager,
  userId: string,
  organizationName: string | null,
  now: number,
): Promise<{ token: string; expiresAt: Date }> {
  await em.query(
    'UPDATE email_confirmations SET revoked_at = $2 WHERE user_id = $1 AND used_at IS NULL AND revoked_at IS NULL',
    [userId, new Date(now)],
  );
  const token = generateToken(EMAIL_CONFIRMATION_PREFIX);
  const expiresAt = new Date(now + EMAIL_CONFIRMATION_TTL_MS);
  await em.query(
    `INSERT INTO email_confirmations (user_id, token_hash, organization_name, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [userId, hashToken(token), organizationName, new Date(now), expiresAt],
  );
  return { token, expiresAt };
}

/**
 * A new confirmation link for a signed-in, unverified account (the first was lost or expired);
 * it withdraws older links and keeps the organization the sign-up named. Null when the address
 * is confirmed already.
 */
export async function resendEmailConfirmation(
  ds: DataSource,
  userId: string,
  now: number,
): Promise<{ user: User; token: string; expiresAt: Date } | null> {
  return ds.transaction(async (em) => {
    const user = await em.findOne(User, { where: { id: userId }, lock: { mode: 'pessimistic_write' } });
    if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in first');
    if (user.emailVerifiedAt) return null;
    const [last] = await queryRows<{ organization_name: string | null }>(
      em,
      `SELECT organization_name FROM email_confirmations WHERE user_id = $1 AND used_at IS NULL
        ORDER BY created_at DESC LIMIT 1`,
      [userId],
    );
    return { user, ...(await createConfirmation(em, userId, last?.organization_name ?? null, now)) };
  });
}

const INVALID =
  'This confirmation link is no longer valid (used, or replaced by a newer one): sign in to ask for a new one';
const EXPIRED = 'This confirmation link has expired: sign in to ask for a new one';
const OTHER_ACCOUNT =
  'This confirmation link belongs to another account: sign out, then sign in with the address and password of the account you created';

export interface ConfirmedEmail {
  user: User;
  /** The organization named at sign-up, created now; null when there was none to create. */
  organization: Organization | null;
}

/**
 * Uses a confirmation link: the address is confirmed, the link is spent (and any other pending
 * one withdrawn), and the organization named at sign-up is created with the user as owner, in
 * one transaction. Only the account's own session may use it (`userId`): receiving the link
 * proves the address, and signing in proves the password was chosen by the same person. Without
 * that, someone who signed up first with another person's address, and a password of their
 * choosing, would get the account confirmed when its owner clicked the link (a pre-hijacked
 * account); the owner takes such an account over by a password reset instead (decision 060).
 * NOT_FOUND for an unknown, used or withdrawn link or another account's, FORBIDDEN once expired.
 */
export async function confirmEmailAddress(
  ds: DataSource,
  token: string,
  userId: string,
  plan: PlanId,
  now: number,
): Promise<ConfirmedEmail> {
  if (typeof token !== 'string' || !token.startsWith(EMAIL_CONFIRMATION_PREFIX) || token.length > 200) {
    throw new AppError('NOT_FOUND', INVALID);
  }
  return ds.transaction(async (em) => {
    const [row] = await queryRows<{ id: string; user_id: string; organization_name: string | null; expires_at: Date }>(
      em,
      `SELECT id, user_id, organization_name, expires_at FROM email_confirmations
        WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL FOR UPDATE`,
      [hashToken(token)],
    );
    if (!row) throw new AppError('NOT_FOUND', INVALID);
    if (row.user_id !== userId) throw new AppError('NOT_FOUND', OTHER_ACCOUNT);
    if (new Date(row.expires_at).getTime() <= now) throw new AppError('FORBIDDEN', EXPIRED);
    await em.query('UPDATE email_confirmations SET used_at = $2 WHERE id = $1', [row.id, new Date(now)]);
    await em.query(
      'UPDATE email_confirmations SET revoked_at = $2 WHERE user_id = $1 AND used_at IS NULL AND revoked_at IS NULL',
      [row.user_id, new Date(now)],
    );
    const user = await em.findOneByOrFail(User, { id: row.user_id });
    user.emailVerifiedAt ??= new Date(now);
    await em.update(User, { id: user.id }, { emailVerifiedAt: user.emailVerifiedAt });
    const organization = row.organization_name
      ? await createOwnedOrganization(em, user.id, row.organization_name, plan)
      : null;
    return { user, organization };
  });
}

/**
 * Refuses to let an unverified account join or create an organization when the installation
 * sends email (decision 066): the address must be confirmed by a link first.
 */
export function requireConfirmedAddress(user: User): void {
  if (!user.emailVerifiedAt) {
    throw new AppError(
      'FORBIDDEN',
      `Confirm your email address first: open the link we sent to ${user.email} (the account page sends a new one)`,
    );
  }
}
