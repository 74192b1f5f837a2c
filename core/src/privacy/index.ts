export { luhnValid } from './patterns';
export { Scrubber, scrubberFor } from './scrub';
export {
  DEFAULT_PRIVACY_SETTINGS,
  DEFAULT_SENSITIVE_KEYS,
  FILTERED,
  MAX_SENSITIVE_FIELD_CHARS,
  MAX_SENSITIVE_FIELDS,
} from './settings';
export type { PrivacySettings } from './settings';
