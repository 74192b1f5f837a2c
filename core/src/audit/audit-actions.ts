/**
 * Every action the audit log records (docs/accounts.md, "Audit log"). Names are `<target>.<verb>`
 * in the past tense and never change once written: integrations filter on them. Actions whose
 * feature is not on this branch yet are listed too, so the code that adds the feature has its
 * name ready (the comment says which feature calls it).
 */
export const AUDIT_ACTIONS = [
  // sign-in
  'auth.signed_in', // password sign-in of a member
  'auth.sign_in_failed', // wrong password for an account that is a member
  'auth.sso_signed_in', // SSO (OIDC) sign-in
  'auth.break_glass_signed_in', // an owner's password sign-in while the organization requires SSO
  'auth.two_factor_enrolled',
  'auth.two_factor_disabled',
  'auth.password_reset', // a reset link used (or `user:reset-password`)
  // members
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  // credentials
  'api_token.created',
  'api_token.revoked',
  'upload_token.created',
  'upload_token.revoked',
  'project_key.rotated',
  'project_key.disabled',
  'project_key.rate_limit_changed',
  // projects
  'project.created',
  'project.renamed',
  'project.deleted',
  'project.privacy_changed',
  'project.inbound_filters_changed',
  // alert rules: created, deleted, or their channels (where data is sent) changed
  'alert_rule.created',
  'alert_rule.channels_changed',
  'alert_rule.deleted',
  // organization
  'organization.plan_changed', // by Stripe, by the operator command, by an admin screen
  'organization.sso_settings_changed',
  'organization.require_two_factor_changed',
  // issues
  'issue.deleted',
  'issue.discarded',
  'issue.undiscarded', // discarding stopped: its events are stored again
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** What an audit row's target is. */
export const AUDIT_TARGET_TYPES = [
  'user',
  'member',
  'invitation',
  'api_token',
  'upload_token',
  'project_key',
  'project',
  'alert_rule',
  'organization',
  'issue',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];
