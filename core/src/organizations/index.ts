export { findOrganization } from './find-organization';
export { invitationLink, renderInvitationEmail } from './invitation-email';
export type { InvitationEmail } from './invitation-email';
export {
  acceptInvitation,
  INVITATION_PREFIX,
  INVITATION_TTL_MS,
  invitationStatus,
  inviteMember,
  listInvitations,
  MAX_PENDING_INVITATIONS,
  previewInvitation,
  revokeInvitation,
  signUpWithInvitation,
} from './invitations';
export type {
  AcceptedInvitation,
  CreatedInvitation,
  InvitationPreview,
  InvitationStatus,
  InvitedSignUpResult,
} from './invitations';
export { listMembers, removeMember, updateMemberRole } from './members';
export type { MemberRecord } from './members';
export { MANAGERS, parseRole, ROLES_BY_RANK } from './roles';
export { renameOrganization } from './rename-organization';
export { setRequireTwoFactor } from './require-two-factor';
