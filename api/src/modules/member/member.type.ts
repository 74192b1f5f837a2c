import type { Invitation, InvitationStatus, MemberRecord } from '@tracker/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';

export enum MemberRoleEnum {
  OWNER = 'owner',
  ADMIN = 'admin',
  MEMBER = 'member',
}
registerEnumType(MemberRoleEnum, {
  name: 'MemberRole',
  description:
    'OWNER: everything, including billing and owners. ADMIN: members, projects, keys, tokens, alerts. MEMBER: triage.',
});

export enum InvitationStatusEnum {
  PENDING = 'pending',
  ACCEPTED = 'accepted',
  REVOKED = 'revoked',
  EXPIRED = 'expired',
}
registerEnumType(InvitationStatusEnum, { name: 'InvitationStatus' });

@ObjectType('Member')
export class MemberType {
  @Field(() => ID)
  userId: string;

  @Field(() => String)
  email: string;

  @Field(() => MemberRoleEnum)
  role: MemberRoleEnum;

  @Field(() => String)
  joinedAt: string;

  @Field(() => Boolean, {
    description: 'False: no email has confirmed this address (a sign-up, or an invitation link handed to the inviter).',
  })
  emailVerified: boolean;

  @Field(() => Boolean)
  twoFactorEnabled: boolean;
}

export const toMemberType = (m: MemberRecord): MemberType => ({
  userId: m.userId,
  email: m.email,
  role: m.role as MemberRoleEnum,
  joinedAt: m.joinedAt.toISOString(),
  emailVerified: m.emailVerified,
  twoFactorEnabled: m.twoFactorEnabled,
});

@ObjectType('Invitation')
export class InvitationType {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  organizationId: string;

  @Field(() => String)
  email: string;

  @Field(() => MemberRoleEnum)
  role: MemberRoleEnum;

  @Field(() => String)
  createdAt: string;

  @Field(() => String)
  expiresAt: string;

  @Field(() => String, { nullable: true })
  revokedAt: string | null;
}

export const toInvitationType = (i: Invitation): InvitationType => ({
  id: i.id,
  organizationId: i.organizationId,
  email: i.email,
  role: i.role as MemberRoleEnum,
  createdAt: i.createdAt.toISOString(),
  expiresAt: i.expiresAt.toISOString(),
  revokedAt: i.revokedAt?.toISOString() ?? null,
});

@ObjectType('InvitationResult')
export class InvitationResultType {
  @Field(() => InvitationType)
  invitation: InvitationType;

  @Field(() => Boolean, { description: 'Whether the email went out (SMTP configured and the server accepted it).' })
  emailSent: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      'The invitation link (<publicUrl>/invitations/<token>), only when the email was not sent: pass it on yourself. ' +
      'Only the invited address can use it, once, within 7 days.',
  })
  link: string | null;
}

@ObjectType('InvitationPreview', { description: 'What an invitation link shows before signing in.' })
export class InvitationPreviewType {
  @Field(() => String)
  organizationName: string;

  @Field(() => String)
  email: string;

  @Field(() => MemberRoleEnum)
  role: MemberRoleEnum;

  @Field(() => InvitationStatusEnum)
  status: InvitationStatusEnum;

  @Field(() => String)
  expiresAt: string;
}

export const toInvitationStatus = (s: InvitationStatus): InvitationStatusEnum => s as InvitationStatusEnum;
