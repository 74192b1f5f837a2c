export {
  DEFAULT_PRIVACY_SETTINGS,
  DEFAULT_SENSITIVE_KEYS,
  FILTERED,
  luhnValid,
  MAX_SENSITIVE_FIELD_CHARS,
  MAX_SENSITIVE_FIELDS,
  Scrubber,
  scrubberFor,
} from './scrub';
export type { PrivacySettings } from './scrub';
