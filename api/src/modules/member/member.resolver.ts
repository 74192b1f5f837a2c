import {
  errorMessage,
  acceptInvitation,
  invitationLink,
  inviteMember,
  listInvitations,
  listMembers,
  markInvitationNotEmailed,
  previewInvitation,
  removeMember,
  renderInvitationEmail,
  revokeInvitation,
  signUpWithInvitation,
  updateMemberRole,
  isAppError,
} from '@tracker/core';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requireCaller, requireSession, type Context } from '../../context';
import { adoptSession } from '../auth/auth.resolver';
import { AuthPayload, toUserType } from '../auth/auth.type';
import { OrganizationType, toOrganizationType } from '../organization/organization.type';
import { sendInvitationEmail } from './invitation-mailer';
import { throttled } from '../../auth/throttled';

/** An unknown or withdrawn invitation link is a failed guess for the sign-in throttle (issue 32). */
const invitationGuessFailed = (err: unknown) => isAppError(err) && err.code === 'NOT_FOUND';
import {
  InvitationPreviewType,
  InvitationResultType,
  InvitationType,
  MemberRoleEnum,
  MemberType,
  toInvitationStatus,
  toInvitationType,
  toMemberType,
} from './member.type';

@Resolver()
export class MemberResolver {
  @Query(() => [MemberType], { description: 'Any member. Owners first, then admins, then members.' })
  async members(@Arg('organizationId', () => ID) organizationId: string, @Ctx() ctx: Context): Promise<MemberType[]> {
    return (await listMembers(ctx.ds, requireCaller(ctx), organizationId)).map(toMemberType);
  }

  @Query(() => [InvitationType], { description: 'Owners and admins. Pending invitations, newest first.' })
  async invitations(
    @Arg('organizationId', () => ID) organizationId: string,
    @Ctx() ctx: Context,
  ): Promise<InvitationType[]> {
    return (await listInvitations(ctx.ds, requireCaller(ctx), organizationId)).map(toInvitationType);
  }

  @Query(() => InvitationPreviewType, {
    nullable: true,
    description: 'The invitation behind a link (no sign-in needed: the token is the secret). Null when unknown.',
  })
  async invitation(
    @Arg('token', () => String) token: string,
    @Ctx() ctx: Context,
  ): Promise<InvitationPreviewType | null> {
    const preview = await previewInvitation(ctx.ds, token);
    if (!preview) return null;
    return {
      organizationName: preview.organization.name,
      email: preview.invitation.email,
      role: preview.invitation.role as MemberRoleEnum,
      status: toInvitationStatus(preview.status),
      expiresAt: preview.invitation.expiresAt.toISOString(),
    };
  }

  @Mutation(() => InvitationResultType, {
    description:
      'Owners and admins (only owners invite owners). Emails a single-use link valid for 7 days over SMTP; ' +
      'without SMTP (or when sending fails) the invitation is still created and the link is in the answer.',
  })
  async inviteMember(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('email', () => String) email: string,
    @Arg('role', () => MemberRoleEnum, { defaultValue: MemberRoleEnum.MEMBER }) role: MemberRoleEnum,
    @Ctx() ctx: Context,
  ): Promise<InvitationResultType> {
    const emailed = !!ctx.config.smtp;
    const created = await inviteMember(ctx.ds, requireCaller(ctx), { organizationId, email, role, emailed });
    const link = invitationLink(ctx.config.publicUrl, created.token);
    let emailSent = false;
    if (ctx.config.smtp) {
      const message = renderInvitationEmail({
        organizationName: created.organization.name,
        inviterEmail: created.inviter.email,
        role: created.invitation.role,
        link,
        expiresAt: created.invitation.expiresAt,
      });
      try {
        await sendInvitationEmail(ctx.config.smtp, created.invitation.email, message);
        emailSent = true;
      } catch (err) {
        // The link is returned instead, so it proves no address (decision 066); the error (never the link) is logged.
        await markInvitationNotEmailed(ctx.ds, created.invitation.id);
        ctx.log?.warn({ invitationId: created.invitation.id, error: errorMessage(err) }, 'invitation email not sent');
      }
    }
    return { invitation: toInvitationType(created.invitation), emailSent, link: emailSent ? null : link };
  }

  @Mutation(() => InvitationType, { description: 'Owners and admins. The link stops working.' })
  async revokeInvitation(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<InvitationType> {
    return toInvitationType(await revokeInvitation(ctx.ds, requireCaller(ctx), id));
  }

  @Mutation(() => OrganizationType, {
    description:
      'Sessions only. Joins the organization; the signed-in email must be the invited one. Single use. With SMTP, ' +
      'an unverified account joins only with a link that came by email (it then confirms the address).',
  })
  async acceptInvitation(@Arg('token', () => String) token: string, @Ctx() ctx: Context): Promise<OrganizationType> {
    const { user } = requireSession(ctx);
    const { organization } = await throttled(
      ctx,
      'invitation',
      user.id,
      () =>
        acceptInvitation(ctx.ds, user.id, token, undefined, { origin: ctx.origin, mailConfigured: !!ctx.config.smtp }),
      {
        isFailure: invitationGuessFailed,
      },
    );
    return toOrganizationType(organization);
  }

  @Mutation(() => AuthPayload, {
    description:
      'Creates the account of the invited email, joins the organization and opens a session. Single use. With SMTP, ' +
      'only a link that came by email works, and the account starts verified.',
  })
  async signupWithInvitation(
    @Arg('token', () => String) token: string,
    @Arg('password', () => String) password: string,
    @Ctx() ctx: Context,
  ): Promise<AuthPayload> {
    // Keyed by the client address only (no account yet): a guessed link counts like a wrong password.
    const r = await throttled(
      ctx,
      'invitation',
      `link:${String(token).slice(0, 80)}`,
      () =>
        signUpWithInvitation(ctx.ds, { token, password }, undefined, {
          origin: ctx.origin,
          mailConfigured: !!ctx.config.smtp,
        }),
      {
        isFailure: invitationGuessFailed,
        clearOnSuccess: false,
      },
    );
    adoptSession(ctx, r.user, r.sessionId);
    return { token: r.token, user: toUserType(r.user), organization: toOrganizationType(r.organization) };
  }

  @Mutation(() => MemberType, {
    description: 'Owners change any role; admins switch others between ADMIN and MEMBER. The last owner stays owner.',
  })
  async updateMemberRole(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('userId', () => ID) userId: string,
    @Arg('role', () => MemberRoleEnum) role: MemberRoleEnum,
    @Ctx() ctx: Context,
  ): Promise<MemberType> {
    const caller = requireCaller(ctx);
    return toMemberType(await updateMemberRole(ctx.ds, { caller, organizationId, userId, role }));
  }

  @Mutation(() => Boolean, {
    description: 'Owners remove anyone, admins remove admins and members, anyone may leave. Not the last owner.',
  })
  async removeMember(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('userId', () => ID) userId: string,
    @Ctx() ctx: Context,
  ): Promise<boolean> {
    await removeMember(ctx.ds, { caller: requireCaller(ctx), organizationId, userId });
    return true;
  }
}
