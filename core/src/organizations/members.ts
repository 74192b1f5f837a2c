import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { Membership, type Role } from '../entities';
import { AppError } from '../errors';
import { isUuid } from '../access/is-uuid';
import { requireOrganizationAccess, type Caller } from '../access';
import { parseRole, ROLES_BY_RANK } from './roles';
import { recordIssueActivities } from '../activity/record-activity';
import { auditSourceOf, recordAudit } from '../audit/record-audit';

export interface MemberRecord {
  userId: string;
  email: string;
  role: Role;
  joinedAt: Date;
  /** Whether an email confirmed the member's address (docs/accounts.md, email ownership). */
  emailVerified: boolean;
  twoFactorEnabled: boolean;
}

interface MemberRow {
  user_id: string;
  email: string;
  role: Role;
  created_at: Date;
  email_verified: boolean;
  two_factor: boolean;
}

const toMember = (r: MemberRow): MemberRecord => ({
  userId: r.user_id,
  email: r.email,
  role: r.role,
  joinedAt: new Date(r.created_at),
  emailVerified: !!r.email_verified,
  twoFactorEnabled: !!r.two_factor,
});

async function findMember(em: EntityManager, organizationId: string, userId: string): Promise<MemberRecord | null> {
  if (!isUuid(userId)) return null;
  const rows = await queryRows<MemberRow>(
    em,
    `SELECT m.user_id, u.email, m.role, m.created_at,
            u.email_verified_at IS NOT NULL AS email_verified, u.totp_secret IS NOT NULL AS two_factor
       FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = $1 AND m.user_id = $2`,
    [organizationId, userId],
  );
  return rows[0] ? toMember(rows[0]) : null;
}

async function countOwners(em: EntityManager, organizationId: string): Promise<number> {
  const rows = await queryRows<{ n: string }>(
    em,
    `SELECT count(*) AS n FROM memberships WHERE organization_id = $1 AND role = 'owner'`,
    [organizationId],
  );
  return Number(rows[0]?.n ?? 0);
}

const LAST_OWNER = 'An organization needs at least one owner: make another member owner first';

/** Any member sees the members: owners first, then admins, then members, oldest first. */
export async function listMembers(ds: DataSource, caller: Caller, organizationId: string): Promise<MemberRecord[]> {
  await requireOrganizationAccess(ds, caller, organizationId, 'read', 'see members');
  const rows = await queryRows<MemberRow>(
    ds,
    `SELECT m.user_id, u.email, m.role, m.created_at,
            u.email_verified_at IS NOT NULL AS email_verified, u.totp_secret IS NOT NULL AS two_factor
       FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = $1
      ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, m.created_at, m.user_id`,
    [organizationId],
  );
  return rows.map(toMember);
}

/**
 * Owners change any role; admins change admins and members between admin and member. The last
 * owner cannot be demoted. The organization row is locked, so two concurrent demotions cannot
 * both pass the "another owner remains" check.
 */
export async function updateMemberRole(
  ds: DataSource,
  {
    caller,
    organizationId,
    userId: targetUserId,
    role: newRole,
  }: { caller: Caller; organizationId: string; userId: string; role: string },
): Promise<MemberRecord> {
  const role = parseRole(newRole);
  return ds.transaction(async (em) => {
    const access = await requireOrganizationAccess(em, caller, organizationId, 'admin', 'change roles', {
      lock: true,
    });
    const target = await findMember(em, organizationId, targetUserId);
    if (!target) throw new AppError('NOT_FOUND', 'Member not found');
    if (target.role === role) return target;
    if (access.role !== 'owner' && (target.role === 'owner' || role === 'owner')) {
      throw new AppError('FORBIDDEN', 'Only owners can grant or take away the owner role');
    }
    if (target.role === 'owner' && (await countOwners(em, organizationId)) <= 1) {
      throw new AppError('CONFLICT', LAST_OWNER);
    }
    await em.update(Membership, { organizationId, userId: target.userId }, { role });
    await recordAudit(em, {
      organizationId,
      ...auditSourceOf(caller),
      action: 'member.role_changed',
      target: { type: 'member', id: target.userId, label: target.email },
      changes: { before: { role: target.role }, after: { role } },
    });
    return { ...target, role };
  });
}

/**
 * Removes a member. Anyone may leave (remove themselves); owners remove anyone; admins remove
 * admins and members. The last owner can neither leave nor be removed. Their sessions and API
 * tokens stay valid for their other organizations; this one is gone from every query at once,
 * because every query joins memberships.
 */
export async function removeMember(
  ds: DataSource,
  { caller, organizationId, userId: targetUserId }: { caller: Caller; organizationId: string; userId: string },
): Promise<MemberRecord> {
  return ds.transaction(async (em) => {
    const self = caller.userId === targetUserId;
    const access = await requireOrganizationAccess(
      em,
      caller,
      organizationId,
      // Leaving is every member's right; removing someone else is an admin's.
      self ? { roles: ROLES_BY_RANK, scope: 'admin' } : 'admin',
      'remove members',
      { lock: true },
    );
    const target = await findMember(em, organizationId, targetUserId);
    if (!target) throw new AppError('NOT_FOUND', 'Member not found');
    if (!self && access.role !== 'owner' && target.role === 'owner') {
      throw new AppError('FORBIDDEN', 'Only owners can remove an owner');
    }
    if (target.role === 'owner' && (await countOwners(em, organizationId)) <= 1) {
      throw new AppError('CONFLICT', `The last owner cannot leave or be removed. ${LAST_OWNER}`);
    }
    await em.delete(Membership, { organizationId, userId: target.userId });
    await unassignLeaver(em, organizationId, target.userId, caller.userId, target.email);
    await recordAudit(em, {
      organizationId,
      ...auditSourceOf(caller),
      action: 'member.removed',
      target: { type: 'member', id: target.userId, label: target.email },
      changes: { before: { email: target.email, role: target.role }, after: { left: self } },
    });
    return target;
  });
}

/**
 * Issues assigned to someone who leaves the organization fall back to unassigned (the
 * assignee must be a member), each recorded in its timeline. The time is the database's: this
 * is bookkeeping of the removal, not a rule about time.
 */
async function unassignLeaver(
  em: EntityManager,
  organizationId: string,
  userId: string,
  actorId: string,
  email: string,
): Promise<void> {
  const rows = await queryRows<{ id: string; project_id: string; at: Date }>(
    em,
    `UPDATE issues SET assignee_id = NULL
      WHERE assignee_id = $1 AND project_id IN (SELECT id FROM projects WHERE organization_id = $2)
      RETURNING id, project_id, now() AS at`,
    [userId, organizationId],
  );
  await recordIssueActivities(
    em,
    rows.map((r) => ({
      issueId: r.id,
      projectId: r.project_id,
      kind: 'ASSIGNED' as const,
      actorId,
      message: `Unassigned (was ${email}, no longer a member)`,
      data: { assigneeId: null, assigneeEmail: null, previousAssigneeId: userId },
      at: new Date(r.at),
    })),
  );
}
