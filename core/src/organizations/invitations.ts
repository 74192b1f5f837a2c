import type { DataSource } from 'typeorm';
import { normalizeEmail } from '../accounts/normalize-email';
import { queryRows } from '../db/query-rows';
import { Invitation, Organization, User } from '../entities';
import { AppError } from '../errors';
import { isUuid } from '../access/is-uuid';
import { generateToken, hashToken } from '../security';
import { requireOrganizationAccess, type Caller } from '../access';
import { MANAGERS, parseRole } from './roles';
import { auditSourceOf, recordAudit } from '../audit/record-audit';

export const INVITATION_PREFIX = 'eti_';
/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
/** Pending invitations per organization: a bound on the mail one admin can make us send. */
export const MAX_PENDING_INVITATIONS = 100;

export const INVITATION_TOKEN_PATTERN = /^eti_[A-Za-z0-9_-]{43}$/;

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export function invitationStatus(inv: Invitation, now = new Date()): InvitationStatus {
  if (inv.acceptedAt) return 'accepted';
  if (inv.revokedAt) return 'revoked';
  if (inv.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'pending';
}

export interface CreatedInvitation {
  /** The link's secret (`eti_…`), returned once; only its hash is stored. */
  token: string;
  invitation: Invitation;
  organization: Organization;
  inviter: User;
}

/**
 * Invites an email address into an organization with a role. Owners and admins invite; only
 * owners invite owners. A new invitation to the same address replaces the pending one (its
 * link stops working). Sending the email is the caller's job (the api, over SMTP); `emailed`
 * says it will be sent (undo with `markInvitationNotEmailed` when sending fails), so that the
 * link proves the address when used (decision 066).
 */
export async function inviteMember(
  ds: DataSource,
  caller: Caller,
  input: { organizationId: string; email: string; role: string; emailed?: boolean },
  now = new Date(),
): Promise<CreatedInvitation> {
  const role = parseRole(input.role);
  const email = normalizeEmail(input.email);
  return ds.transaction(async (em) => {
    const access = await requireOrganizationAccess(em, caller, input.organizationId, 'admin', 'invite members', {
      lock: true,
    });
    if (role === 'owner' && access.role !== 'owner') throw new AppError('FORBIDDEN', 'Only owners can invite owners');
    const member = await queryRows<{ user_id: string }>(
      em,
      `SELECT m.user_id FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = $1 AND u.email = $2`,
      [access.organization.id, email],
    );
    if (member.length > 0) throw new AppError('CONFLICT', `email: ${email} is already a member`);
    await em
      .createQueryBuilder()
      .update(Invitation)
      .set({ revokedAt: now })
      .where('organization_id = :org AND email = :email AND accepted_at IS NULL AND revoked_at IS NULL', {
        org: access.organization.id,
        email,
      })
      .execute();
    const pending = await queryRows<{ n: string }>(
      em,
      `SELECT count(*) AS n FROM invitations
        WHERE organization_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2`,
      [access.organization.id, now.toISOString()],
    );
    if (Number(pending[0]?.n ?? 0) >= MAX_PENDING_INVITATIONS) {
      throw new AppError(
        'BAD_USER_INPUT',
        `There are ${MAX_PENDING_INVITATIONS} pending invitations: revoke some first`,
      );
    }
    const token = generateToken(INVITATION_PREFIX);
    const invitation = await em.save(
      Object.assign(new Invitation(), {
        organizationId: access.organization.id,
        email,
        role,
        tokenHash: hashToken(token),
        invitedBy: caller.userId,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        acceptedAt: null,
        acceptedBy: null,
        revokedAt: null,
        // Marked before sending: the invitee may click before the sender returns.
        emailedAt: input.emailed ? now : null,
      }),
    );
    const inviter = await em.findOneByOrFail(User, { id: caller.userId });
    await recordAudit(em, {
      organizationId: access.organization.id,
      ...auditSourceOf(caller),
      action: 'member.invited',
      target: { type: 'invitation', id: invitation.id, label: email },
      changes: { after: { email, role } },
    });
    return { token, invitation, organization: access.organization, inviter };
  });
}

/** The email of an invitation could not be sent and its link goes to the inviter: it proves no address. */
export async function markInvitationNotEmailed(ds: DataSource, invitationId: string): Promise<void> {
  await ds.manager.update(Invitation, { id: invitationId }, { emailedAt: null });
}

/** Pending invitations of the organization, newest first. Owners and admins. */
export async function listInvitations(
  ds: DataSource,
  caller: Caller,
  organizationId: string,
  now = new Date(),
): Promise<Invitation[]> {
  // A read (any token scope may list), but only managers see who was invited and with which link.
  const access = await requireOrganizationAccess(
    ds,
    caller,
    organizationId,
    { roles: MANAGERS, scope: 'read' },
    'see invitations',
  );
  return ds.manager
    .createQueryBuilder(Invitation, 'i')
    .where('i.organization_id = :org AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > :now', {
      org: access.organization.id,
      now,
    })
    .orderBy('i.created_at', 'DESC')
    .addOrderBy('i.id', 'DESC')
    .getMany();
}

/**
 * Withdraws an invitation (its link stops working). Owners and admins of its organization;
 * anyone else gets NOT_FOUND, as for an id that does not exist. Revoking twice is harmless.
 */
export async function revokeInvitation(ds: DataSource, caller: Caller, invitationId: string): Promise<Invitation> {
  const invitation = isUuid(invitationId) ? await ds.manager.findOneBy(Invitation, { id: invitationId }) : null;
  // Whether the caller may know it exists is decided before anything else is said about it.
  if (!invitation) throw new AppError('NOT_FOUND', 'Invitation not found');
  try {
    await requireOrganizationAccess(ds, caller, invitation.organizationId, 'admin', 'revoke invitations');
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', 'Invitation not found');
    throw err;
  }
  if (!invitation.acceptedAt && !invitation.revokedAt) {
    invitation.revokedAt = new Date();
    await ds.transaction(async (em) => {
      await em.update(Invitation, { id: invitation.id }, { revokedAt: invitation.revokedAt });
      await recordAudit(em, {
        organizationId: invitation.organizationId,
        ...auditSourceOf(caller),
        action: 'member.invitation_revoked',
        target: { type: 'invitation', id: invitation.id, label: invitation.email },
        changes: {
          before: { email: invitation.email, role: invitation.role, pending: true },
          after: { pending: false },
        },
      });
    });
  }
  return invitation;
}

export interface InvitationPreview {
  invitation: Invitation;
  organization: Organization;
  status: InvitationStatus;
}

/** What the invitation page shows before the user signs in or up; null for an unknown token. */
export async function previewInvitation(
  ds: DataSource,
  token: string,
  now = new Date(),
): Promise<InvitationPreview | null> {
  if (!INVITATION_TOKEN_PATTERN.test(token)) return null;
  const invitation = await ds.manager.findOneBy(Invitation, { tokenHash: hashToken(token) });
  if (!invitation) return null;
  const organization = await ds.manager.findOneByOrFail(Organization, { id: invitation.organizationId });
  return { invitation, organization, status: invitationStatus(invitation, now) };
}
