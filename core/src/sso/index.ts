export { checkPasswordSignIn, type BreakGlassOrganization } from './password-sign-in';
export { completeSsoLogin, MAX_CALLBACK_PARAMETERS_LENGTH, type SsoLogInResult } from './complete-sso-login';
export { discoverProvider, type ProviderMetadata } from './discover-provider';
export { emailDomainOf, MAX_EMAIL_DOMAINS, parseEmailDomains } from './email-domains';
export { MAX_PROVIDER_RESPONSE_BYTES } from './provider-fetch';
export {
  deleteSsoSettings,
  findSsoSettings,
  saveSsoSettings,
  type SaveSsoSettingsInput,
  type SsoSettings,
} from './sso-settings';
export { SSO_ATTEMPT_TTL_MS, startSsoLogin, type SsoRuntime, type StartedSsoLogin } from './start-sso-login';
