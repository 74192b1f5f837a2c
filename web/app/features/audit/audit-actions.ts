/**
 * What each audit action is called on the page. The keys are the API's action names
 * (core/src/audit/audit-actions.ts); web/test/audit.test.ts checks that both lists agree.
 */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'auth.signed_in': 'Signed in',
  'auth.sign_in_failed': 'Failed sign-in',
  'auth.sso_signed_in': 'Signed in with SSO',
  'auth.break_glass_signed_in': 'Break-glass sign-in',
  'auth.two_factor_enrolled': 'Two-factor enrolled',
  'auth.two_factor_disabled': 'Two-factor disabled',
  'auth.password_reset': 'Password reset',
  'member.invited': 'Member invited',
  'member.invitation_revoked': 'Invitation revoked',
  'member.joined': 'Member joined',
  'member.role_changed': 'Role changed',
  'member.removed': 'Member removed',
  'api_token.created': 'API token created',
  'api_token.revoked': 'API token revoked',
  'upload_token.created': 'Upload token created',
  'upload_token.revoked': 'Upload token revoked',
  'project_key.rotated': 'DSN key rotated',
  'project_key.disabled': 'DSN key disabled',
  'project_key.rate_limit_changed': 'DSN key rate limit changed',
  'project.created': 'Project created',
  'project.renamed': 'Project renamed',
  'project.deleted': 'Project deleted',
  'project.privacy_changed': 'Privacy settings changed',
  'project.inbound_filters_changed': 'Inbound filters changed',
  'alert_rule.created': 'Alert rule created',
  'alert_rule.channels_changed': 'Alert channels changed',
  'alert_rule.deleted': 'Alert rule deleted',
  'organization.plan_changed': 'Plan changed',
  'organization.sso_settings_changed': 'SSO settings changed',
  'organization.require_two_factor_changed': 'Two-factor requirement changed',
  'issue.deleted': 'Issue deleted',
  'issue.discarded': 'Issue discarded',
  'issue.undiscarded': 'Issue no longer discarded',
};

export function actionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action] ?? action;
}
