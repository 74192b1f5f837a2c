export {
  DEFAULT_FINGERPRINT_ENTRY,
  GROUPING_FRAME_COUNT,
  MAX_MESSAGE_CHARS,
  MAX_TITLE_CHARS,
  computeCulprit,
  computeGroupingKey,
  computeTitle,
  normalizeFilename,
  normalizeMessage,
} from './fingerprint';
export type { GroupingInput } from './fingerprint';
