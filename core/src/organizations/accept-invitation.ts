import type { DataSource, EntityManager } from 'typeorm';
import { createSession, type CreatedSession } from '../accounts/create-session';
import { requireConfirmedAddress } from '../accounts/email-confirmation';
import { checkNewPassword } from '../accounts/new-password';
import type { RequestOrigin } from '../access/caller';
import { auditSourceOf, recordAudit } from '../audit/record-audit';
import { Invitation, Membership, Organization, User, type Role } from '../entities';
import { AppError } from '../errors';
import { hashPassword, hashToken } from '../security';
import { invitationStatus, INVITATION_TOKEN_PATTERN as TOKEN_PATTERN } from './invitations';

/** The invitation behind a link, locked for the rest of the transaction, if it can still be used. */
async function claimable(em: EntityManager, token: string, now: Date): Promise<Invitation> {
  const invitation = TOKEN_PATTERN.test(token)
    ? await em
        .createQueryBuilder(Invitation, 'i')
        .where('i.token_hash = :hash', { hash: hashToken(token) })
        .setLock('pessimistic_write')
        .getOne()
    : null;
  if (!invitation) throw new AppError('NOT_FOUND', 'Invitation not found');
  switch (invitationStatus(invitation, now)) {
    case 'accepted':
      throw new AppError('CONFLICT', 'This invitation has already been used');
    case 'revoked':
      throw new AppError('NOT_FOUND', 'This invitation was withdrawn: ask for a new one');
    case 'expired':
      throw new AppError('FORBIDDEN', 'This invitation has expired: ask for a new one');
    case 'pending':
      return invitation;
  }
}

async function consume(
  em: EntityManager,
  invitation: Invitation,
  userId: string,
  now: Date,
  origin: RequestOrigin | undefined,
): Promise<Organization> {
  await em.insert(Membership, { organizationId: invitation.organizationId, userId, role: invitation.role });
  await em.update(Invitation, { id: invitation.id }, { acceptedAt: now, acceptedBy: userId });
  await recordAudit(em, {
    organizationId: invitation.organizationId,
    ...auditSourceOf({ userId, scopes: [], origin }),
    action: 'member.joined',
    target: { type: 'member', id: userId, label: invitation.email },
    changes: { after: { email: invitation.email, role: invitation.role, invitationId: invitation.id } },
  });
  return em.findOneByOrFail(Organization, { id: invitation.organizationId });
}

export interface AcceptedInvitation {
  organization: Organization;
  role: Role;
}

/** How joining treats email ownership: `mailConfigured` when the installation sends email (decision 066). */
export interface JoinOptions {
  origin?: RequestOrigin;
  mailConfigured?: boolean;
}

/**
 * The signed-in user joins the invitation's organization with its role. Single use: the row is
 * locked and marked accepted in the same transaction. Only the account whose email the
 * invitation was sent to may accept it (a forwarded link is useless to anyone else). When mail
 * is configured, an unverified account joins only with a link that came by email (which then
 * confirms its address); a link handed to the inviter proves nothing.
 */
export async function acceptInvitation(
  ds: DataSource,
  userId: string,
  token: string,
  now = new Date(),
  options: JoinOptions = {},
): Promise<AcceptedInvitation> {
  return ds.transaction(async (em) => {
    const invitation = await claimable(em, token, now);
    const user = await em.findOneByOrFail(User, { id: userId });
    if (user.email !== invitation.email) {
      throw new AppError(
        'FORBIDDEN',
        'This invitation was sent to another email address than the one you are signed in with',
      );
    }
    if (await em.existsBy(Membership, { organizationId: invitation.organizationId, userId })) {
      throw new AppError('CONFLICT', 'You are already a member of this organization');
    }
    if (options.mailConfigured && !user.emailVerifiedAt) {
      if (!invitation.emailedAt) requireConfirmedAddress(user);
      await em.update(User, { id: userId }, { emailVerifiedAt: now });
    }
    return { organization: await consume(em, invitation, userId, now, options.origin), role: invitation.role };
  });
}

export interface InvitedSignUpResult extends CreatedSession {
  user: User;
  organization: Organization;
}

const NOT_EMAILED =
  'This invitation link did not come by email, so it cannot confirm the address: ask for the invitation to be sent again';

/** With mail configured, only a link that went out by email may create the invited account (decision 066). */
async function claimableForSignUp(em: EntityManager, token: string, now: Date, mailConfigured: boolean) {
  const invitation = await claimable(em, token, now);
  if (mailConfigured && !invitation.emailedAt) throw new AppError('FORBIDDEN', NOT_EMAILED);
  return invitation;
}

/**
 * Creates the account of an invited person (the email is the invitation's), joins the
 * organization and opens a session, in one transaction. No organization of their own is
 * created. With mail configured the link must have come by email, and the account starts
 * verified (receiving the link proved the address); without, it starts unverified.
 */
export async function signUpWithInvitation(
  ds: DataSource,
  input: { token: string; password: string },
  now = new Date(),
  options: JoinOptions = {},
): Promise<InvitedSignUpResult> {
  checkNewPassword('password', input.password);
  const mail = options.mailConfigured === true;
  // Cheap checks before the (deliberately slow) hash; repeated under the lock below.
  await ds.transaction((em) => claimableForSignUp(em, input.token, now, mail));
  const passwordHash = await hashPassword(input.password);
  return ds.transaction(async (em) => {
    const invitation = await claimableForSignUp(em, input.token, now, mail);
    if (await em.existsBy(User, { email: invitation.email })) {
      throw new AppError(
        'CONFLICT',
        'email: an account with this email already exists: sign in and accept the invitation',
      );
    }
    const user = await em.save(
      em.create(User, { email: invitation.email, passwordHash, emailVerifiedAt: mail ? now : null }),
    );
    const organization = await consume(em, invitation, user.id, now, options.origin);
    const session = await createSession(em, user.id);
    return { user, organization, ...session };
  });
}
