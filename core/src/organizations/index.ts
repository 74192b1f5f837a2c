export { findOrganization } from './find-organization';
export { invitationLink, renderInvitationEmail } from './invitation-email';
export type { InvitationEmail } from './invitation-email';
export { acceptInvitation, signUpWithInvitation } from './accept-invitation';
export type { AcceptedInvitation, InvitedSignUpResult, JoinOptions } from './accept-invitation';
export {
  INVITATION_PREFIX,
  INVITATION_TTL_MS,
  invitationStatus,
  inviteMember,
  listInvitations,
  markInvitationNotEmailed,
  MAX_PENDING_INVITATIONS,
  previewInvitation,
  revokeInvitation,
} from './invitations';
export type { CreatedInvitation, InvitationPreview, InvitationStatus } from './invitations';
export { listMembers, removeMember, updateMemberRole } from './members';
export type { MemberRecord } from './members';
export { MANAGERS, parseRole, ROLES_BY_RANK } from './roles';
export { renameOrganization } from './rename-organization';
export { setRequireTwoFactor } from './require-two-factor';
