import type { ApiScope } from '@tracker/core';

/**
 * Which API-token scope each root field needs: the one table to read when auditing what a
 * token can do. Sessions have every scope; roles (owner, admin, member) are checked on top, by
 * core's access rule (core/src/access), which checks the scope again. Defaults: every Query needs `read`, every Mutation needs `write`, so a
 * mutation added without an entry here is already closed to `read` tokens.
 */
export const DEFAULT_SCOPE = { query: 'read', mutation: 'write' } as const satisfies Record<string, ApiScope>;

/*
 * Deliberately on the defaults: `savedSearches` (read), `createSavedSearch` and `deleteSavedSearch`
 * (write). A saved search is the caller's own view, so a `write` token of a person may keep theirs,
 * as the person could in the dashboard; it is not a secret and sends nothing anywhere.
 */

/** Mutations that need `admin`: people, secrets, destructive or billing changes. */
export const ADMIN_MUTATIONS: ReadonlySet<string> = new Set([
  // members and invitations
  'inviteMember',
  'revokeInvitation',
  'updateMemberRole',
  'removeMember',
  // API tokens
  'createApiToken',
  'revokeApiToken',
  // projects: deleting one and its DSN keys
  'deleteProject',
  'rotateProjectKey',
  // what the edge scrubs: turning it off lets personal data be stored
  'updateProjectPrivacy',
  // inbound filters drop events before they are stored
  'updateProjectInboundFilters',
  'disableProjectKey',
  // a key's rate limit: lifting it lets one key use the whole quota
  'updateProjectKey',
  // issues: deleting one takes its events and feedback with it (merging is triage: `write`)
  'deleteIssue',
  // discarding drops an issue's future events before they are stored (unmerging is triage: `write`)
  'discardIssue',
  // upload tokens (secrets that write releases and source maps)
  'createUploadToken',
  'revokeUploadToken',
  // alert rules (they send data to outside URLs)
  'createAlertRule',
  'updateAlertRule',
  'deleteAlertRule',
  'muteAlertRule',
  // a test notification sends data to the rule's outside URL now
  'testAlertRule',
  // single sign-on decides who becomes a member
  'saveSsoSettings',
  'deleteSsoSettings',
  // who must have two-factor (people and their access)
  'setOrganizationRequireTwoFactor',
  // billing
  'createCheckoutSession',
  'createBillingPortalSession',
]);

/** Queries that need `admin`: the audit log (who did what, from which address) is security data. */
export const ADMIN_QUERIES: ReadonlySet<string> = new Set(['auditLog']);

/**
 * Mutations no API token may run, whatever its scopes: they are about the person, not the
 * data (a leaked token must not be able to change the password, mint more tokens or join
 * organizations). `logout` ends a session; tokens are revoked with `revokeApiToken`.
 */
export const SESSION_ONLY_MUTATIONS: ReadonlySet<string> = new Set([
  'changePassword',
  'createApiToken',
  'acceptInvitation',
  'logout',
  // the account itself (issue 31): a leaked token must not move the email or sign the person out
  'changeEmail',
  'revokeSession',
  'revokeOtherSessions',
  // a confirmation email goes to the person's own address, and only its account's own session
  // uses the link (decision 066)
  'resendEmailConfirmation',
  'confirmEmailAddress',
  'saveSsoSettings',
  'deleteSsoSettings',
  // two-factor of the person (a leaked token must not turn off its owner's second factor)
  'startTwoFactorEnrolment',
  'confirmTwoFactor',
  'disableTwoFactor',
  'regenerateRecoveryCodes',
]);

/**
 * The instance admin's fields (decision 051): no API token may call them, whatever its scopes.
 * They reach across every organization of the instance; a leaked token must not carry that, and
 * the operator command covers automation on the server itself.
 */
export const INSTANCE_ADMIN_FIELDS: ReadonlySet<string> = new Set([
  'adminOrganizations',
  'adminDeadLetters',
  'adminInstance',
  'adminSetOrganizationPlan',
  'adminReplayDeadLetters',
  'adminPurgeDeadLetters',
  'adminSendTestEmail',
]);

export function requiredScope(operation: 'query' | 'mutation', field: string): ApiScope {
  if (operation === 'mutation' && ADMIN_MUTATIONS.has(field)) return 'admin';
  if (operation === 'query' && ADMIN_QUERIES.has(field)) return 'admin';
  return DEFAULT_SCOPE[operation];
}
