// What a project may set about scrubbing, and the defaults (columns of `projects`).

/** What a scrubbed value becomes (Sentry's word, so SDK users recognise it). */
export const FILTERED = '[Filtered]';

/**
 * Key names whose values are credentials or session state, matched as case-insensitive
 * substrings of a key: `auth` also covers `authorization` and `x-auth-token`, `cookie` covers
 * `set-cookie`, `session` covers `sessionid` and `session_key`, `credential` covers `credentials`.
 */
export const DEFAULT_SENSITIVE_KEYS: readonly string[] = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'api_key',
  'apikey',
  'api-key',
  'auth',
  'cookie',
  'session',
  'csrf',
  'xsrf',
  'credential',
  'private_key',
  'privatekey',
  'private-key',
];

/** A project's scrubbing settings (columns of `projects`, carried to the edge in `KeyInfo`). */
export interface PrivacySettings {
  /** The built-in key names and card numbers. */
  scrubDefaults: boolean;
  /** The project's own key names, matched like the built-in ones (case-insensitive substrings). */
  sensitiveFields: readonly string[];
  /** IPv4 and IPv6 addresses in text, and `user.ip_address` / `user.ip`. */
  scrubIpAddresses: boolean;
}

export const DEFAULT_PRIVACY_SETTINGS: PrivacySettings = Object.freeze({
  scrubDefaults: true,
  sensitiveFields: Object.freeze([]) as readonly string[],
  scrubIpAddresses: false,
});

export const MAX_SENSITIVE_FIELDS = 50;
export const MAX_SENSITIVE_FIELD_CHARS = 100;
