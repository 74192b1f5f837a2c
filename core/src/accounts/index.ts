export { API_TOKEN_PREFIX, createApiToken, listApiTokens, MAX_API_TOKENS_PER_USER, revokeApiToken } from './api-tokens';
export type { CreatedApiToken } from './api-tokens';
export { authenticate, authenticateBearer, logOut } from './authenticate';
export type { BearerResult, Principal } from './authenticate';
export { changePassword } from './change-password';
export type { ChangePasswordInput, ChangePasswordResult } from './change-password';
export { createSession, revokeAllSessions, SESSION_PREFIX, SESSION_TTL_MS } from './create-session';
export type { CreatedSession } from './create-session';
export { firstOrganization } from './first-organization';
export { logIn } from './log-in';
export type { LogInResult } from './log-in';
export { checkNewPassword } from './new-password';
export { normalizeEmail } from './normalize-email';
export { ALL_SCOPES, hasScope, parseScopes } from './scopes';
export { checkSignUpInput, requireSignUpOpen, signUp, SIGN_UP_CLOSED, SIGN_UP_REFUSED } from './sign-up';
export type { SignUpInput, SignUpResult } from './sign-up';
// Organizations (members, roles, invitations) live in core/src/organizations; they are
// re-exported here so that `@tracker/core` carries them without editing the shared core/src/index.ts.
export * from '../organizations';
export {
  cancelEmailChange,
  confirmEmailChange,
  EMAIL_CHANGE_PREFIX,
  EMAIL_CHANGE_TTL_MS,
  findPendingEmail,
  requestEmailChange,
} from './change-email';
export type { EmailChangeRequest } from './change-email';
export { listSessions, revokeOtherSessions, revokeSession } from './sessions';
export type { SessionSummary } from './sessions';
export { checkPassword, organizationsRequiringTwoFactor, signInWithPassword, WRONG_PASSWORD } from './log-in';
export type { SignInResult } from './log-in';
export * from './throttle';
export {
  checkPasswordResetToken,
  passwordResetLink,
  requestPasswordReset,
  resetPassword,
  RESET_PREFIX,
  RESET_TTL_MS,
} from './password-reset';
export type { ResetRequest, ResetResult } from './password-reset';
export {
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  operatorDisableTwoFactor,
  regenerateRecoveryCodes,
  startTwoFactorEnrolment,
  twoFactorStatus,
} from './two-factor/two-factor';
export type { TwoFactorStatus } from './two-factor/two-factor';
export {
  completeTwoFactorSignIn,
  createSignInChallenge,
  readSignInChallenge,
  CHALLENGE_PREFIX,
} from './two-factor/sign-in-challenge';
export { parseCode, stepAt, totpCodeAt, TOTP_PERIOD_S } from './two-factor/totp';
export { RECOVERY_CODE_COUNT } from './two-factor/recovery-codes';
export { renderPasswordResetEmail } from './password-reset-email';
export {
  confirmEmailAddress,
  EMAIL_CONFIRMATION_PREFIX,
  EMAIL_CONFIRMATION_TTL_MS,
  emailConfirmationLink,
  requestSignUp,
  requireConfirmedAddress,
  resendEmailConfirmation,
} from './email-confirmation';
export type { ConfirmedEmail, SignUpRequest } from './email-confirmation';
export { renderAlreadyRegisteredEmail, renderEmailConfirmationEmail } from './sign-up-email';
export type { AccountEmail } from './sign-up-email';
