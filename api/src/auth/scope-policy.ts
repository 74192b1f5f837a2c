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
  // who must have two-factor (people and their access)
  'setOrganizationRequireTwoFactor',
  // billing
  'createCheckoutSession',
  'createBillingPortalSession',
]);

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
  // two-factor of the person (a leaked token must not turn off its owner's second factor)
  'startTwoFactorEnrolment',
  'confirmTwoFactor',
  'disableTwoFactor',
  'regenerateRecoveryCodes',
]);

export function requiredScope(operation: 'query' | 'mutation', field: string): ApiScope {
  if (operation === 'mutation' && ADMIN_MUTATIONS.has(field)) return 'admin';
  return DEFAULT_SCOPE[operation];
}
