export { callerOf, sessionCaller, type Caller, type RequestOrigin } from './caller';
export { isFirstAccount, isInstanceAdmin, requireInstanceAdmin } from './instance-admin';
export { isUuid } from './is-uuid';
export { findIssueAccess, lockIssuesForCaller, requireLockedIssue, type LockedIssue } from './issue-access';
export { findOrganizationAccess, requireOrganizationAccess, type OrganizationAccess } from './organization-access';
export {
  findProjectAccess,
  findProjectsWithSecretsShown,
  findReadableProjectIds,
  requireProjectAccess,
  type ProjectAccess,
} from './project-access';
export { assertAllowed, assertScope, canSeeSecrets, needOf, ROLES_FOR, type AccessNeed, type Need } from './rules';
export { isMaskedUrl, maskSecret, maskUrl, SECRET_FIELDS, type SecretField } from './field-rules';
