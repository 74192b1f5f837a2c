import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { Membership, User } from '../entities';
import { AppError } from '../errors';
import { generateToken, hashPassword } from '../security';
import type { StoredProvider } from './provider-client';

/**
 * The user behind an issuer's `sub`, made a member of the provider's organization just in time.
 *
 * - Linked before: that user, whatever email the token carries now (the link is the `sub`).
 * - Not linked, no account with the email: a new account (with a password nobody knows: the
 *   password reset gives it one) and a membership with the configured role.
 * - Not linked, an account with the email exists: linked only when that account is already a
 *   member of the organization. Otherwise an owner of any organization could point a provider
 *   of their own at someone else's address and sign in as them (decision 057).
 */
export async function linkSsoUser(
  em: EntityManager,
  provider: StoredProvider,
  subject: string,
  email: string,
): Promise<{ user: User; joined: boolean }> {
  const linked = await queryRows<{ user_id: string }>(
    em,
    `UPDATE sso_identities SET last_used_at = now() WHERE issuer = $1 AND subject = $2 RETURNING user_id`,
    [provider.issuer, subject],
  );
  let user: User | null = null;
  if (linked[0]) {
    user = await em.findOneBy(User, { id: linked[0].user_id });
  } else {
    user = await em.findOneBy(User, { email });
    if (user) {
      const member = await em.findOneBy(Membership, { organizationId: provider.organizationId, userId: user.id });
      if (!member) {
        throw new AppError(
          'UNAUTHENTICATED',
          `An account for ${email} already exists: sign in with its password and ask an owner to invite it, then use single sign-on`,
        );
      }
    } else {
      const passwordHash = await hashPassword(generateToken('', 32));
      user = await em.save(em.create(User, { email, passwordHash }));
    }
    await queryRows(
      em,
      `INSERT INTO sso_identities (issuer, subject, user_id, organization_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (issuer, subject) DO NOTHING`,
      [provider.issuer, subject, user.id, provider.organizationId],
    );
  }
  if (!user) throw new AppError('UNAUTHENTICATED', 'The account linked to this identity no longer exists');
  const inserted = await queryRows<{ user_id: string }>(
    em,
    `INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, user_id) DO NOTHING RETURNING user_id`,
    [provider.organizationId, user.id, provider.defaultRole],
  );
  return { user, joined: inserted.length > 0 };
}
